import Testing

@testable import ctxsim

/// Where the teaching folders are looked for when none is given.
@Suite("Home")
struct HomeTests {
  /// A console whose file system has only the given folders.
  private func console(folders: Set<String>, environment: [String: String] = [:]) -> Console {
    Console(
      write: { _ in }, writeError: { _ in }, isTerminal: false, environment: environment,
      readFile: { folders.contains($0) ? .directory([]) : .missing })
  }

  @Test("The working directory comes first, as before")
  func workingDirectory() {
    let home = Home(
      console: console(folders: ["Lessons", "/opt/ctxsim/Lessons"]),
      executable: "/opt/ctxsim/.build/release/ctxsim", buildClone: "/src/ctxsim")
    #expect(home.locate("Lessons") == "Lessons")
  }

  @Test("CTXSIM_HOME, then the folders above the executable and their share/ctxsim")
  func order() {
    let installed = Home(
      console: console(folders: [
        "/usr/local/share/ctxsim/Lessons/Levels", "/usr/local/share/ctxsim/scenarios",
        "/src/ctxsim/Lessons", "/src/ctxsim/scenarios",
      ]),
      executable: "/usr/local/bin/ctxsim", buildClone: "/src/ctxsim")
    #expect(installed.locate("Lessons/Levels") == "/usr/local/share/ctxsim/Lessons/Levels")
    let given = Home(
      console: console(
        folders: [
          "/mine/Lessons", "/mine/scenarios", "/usr/local/share/ctxsim/Lessons",
          "/usr/local/share/ctxsim/scenarios",
        ],
        environment: ["CTXSIM_HOME": "/mine"]),
      executable: "/usr/local/bin/ctxsim", buildClone: "/src/ctxsim")
    #expect(given.locate("Lessons") == "/mine/Lessons")
    let clone = Home(
      console: console(folders: ["/src/ctxsim/Lessons", "/src/ctxsim/scenarios"]),
      executable: "/usr/local/bin/ctxsim", buildClone: "/src/ctxsim")
    #expect(clone.locate("Lessons") == "/src/ctxsim/Lessons")
  }

  @Test("A Lessons folder of the user's own, without scenarios beside it, is not ctxsim's")
  func notAHome() {
    let home = Home(
      console: console(folders: [
        "/home/ann/Lessons", "/src/ctxsim/Lessons", "/src/ctxsim/scenarios",
      ]),
      executable: "/home/ann/.swiftpm/bin/ctxsim", buildClone: "/src/ctxsim")
    #expect(home.locate("Lessons") == "/src/ctxsim/Lessons")
  }

  @Test("Found nowhere, the folder is named as given, for the error")
  func nowhere() {
    let home = Home(console: console(folders: []), executable: nil, buildClone: "/gone")
    #expect(home.locate("Lessons/Exercises") == "Lessons/Exercises")
  }
}
