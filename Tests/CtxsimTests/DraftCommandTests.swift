import Testing

@testable import ctxsim

/// `ctxsim draft` from the command line: the scenario on standard output, what was called
/// and stood in on standard error, and errors placed at the app's own Swift lines.
@Suite("ctxsim draft")
struct DraftCommandTests {
  private static let model = "Tests/ContextSimTests/Fixtures/Photos.xcdatamodeld"

  private static func saver(setting key: String) -> String {
    """
    final class Saver {
      let container: NSPersistentContainer
      func save(_ url: URL) {
        container.performBackgroundTask { context in
          let photo = NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context)
          photo.setValue(url.absoluteString, forKey: "\(key)")
          try? context.save()
        }
      }
    }
    """
  }

  @Test("The example drafts to a scenario labelled with its lines, and a summary")
  func example() {
    let run = ctxsim("draft", "Examples/Draft/ImageImporter.swift")
    #expect(run.status == 0)
    #expect(run.out.contains(#""label": "ImageImporter.swift:21""#))
    #expect(
      run.err
        == "draft: ImageImporter: importImages(), markAllViewed(), called on the main thread\n")
  }

  @Test("The mended example: its stood-in fetcher and its one line not modelled are summarised")
  func fixedExample() {
    let run = ctxsim("draft", "Examples/Draft/ImageImporterFixed.swift")
    #expect(run.status == 0)
    #expect(
      run.err == """
        draft: fetcher: stood in, answers at once
        draft: ImageImporterFixed: importImages(), markAllViewed(), on the main actor
        draft: 1 line not modelled: it prints as a step

        """)
  }

  @Test("--model takes the app's entities, constraints included")
  func givenModel() {
    let run = ctxsim(
      "draft", "Saver.swift", "--model", Self.model,
      files: ["Saver.swift": Self.saver(setting: "remoteURL")])
    #expect(run.status == 0, "\(run.err)")
    #expect(run.out.contains(#""unique""#))
    #expect(run.out.contains(#""newBackgroundContext": "context""#))
  }

  @Test("A key the model lacks is an error at the Swift line that sets it, exit 65")
  func errorAtSwiftLine() {
    let run = ctxsim(
      "draft", "Saver.swift", "--model", Self.model,
      files: ["Saver.swift": Self.saver(setting: "imageData")])
    #expect(run.status == 65)
    #expect(
      run.err.contains(
        #"Saver.swift:6: error: the draft does not run: Photo has no attribute or relationship "imageData""#
      ))
  }

  @Test("A missing file exits 66; a file over --max-file-size, 75")
  func inputs() {
    #expect(ctxsim("draft", "Nowhere.swift").status == 66)
    let big = ctxsim(
      "draft", "Big.swift", "--max-file-size", "10", files: ["Big.swift": Self.saver(setting: "x")])
    #expect(big.status == 75)
    #expect(big.err.contains("over the limit of 10"))
  }
}
