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
      run.err == """
        draft: ImageImporter: importImages(), markAllViewed(), called on the main thread
        draft: every line read is modelled

        """)
  }

  @Test("The mended example: its stood-in fetcher is summarised, and every line is modelled")
  func fixedExample() {
    let run = ctxsim("draft", "Examples/Draft/ImageImporterFixed.swift")
    #expect(run.status == 0)
    #expect(
      run.err == """
        draft: fetcher: stood in, answers at once
        draft: ImageImporterFixed: importImages(), markAllViewed(), on the main actor
        draft: every line read is modelled

        """)
  }

  @Test("draft lists each line not modelled with its place and why; run exits 3 past one")
  func unmodelledLines() {
    let source = """
      final class Store {
        let container: NSPersistentContainer
        func sync() {
          container.performBackgroundTask { context in
            try? context.save()
          }
          manager.saveAll()
        }
      }
      """
    let drafted = ctxsim("draft", "Store.swift", files: ["Store.swift": source])
    #expect(drafted.status == 0)
    #expect(
      drafted.err.contains(
        """
        draft: 1 line not modelled: a run that passes one is not clean
        draft:   Store.swift:7:5  manager.saveAll()
        draft:     a call on `manager`, which ctxsim does not know

        """))
    let ran = ctxsim("run", "Store.swift", files: ["Store.swift": source])
    #expect(ran.status == 3)
    #expect(ran.out.contains("Not clean: what that line does is unknown (exit 3)."))
    let checked = ctxsim("check", "Store.swift", files: ["Store.swift": source])
    #expect(checked.status == 3, "\(checked.out)\(checked.err)")
    #expect(checked.out.contains("UNMODELLED"))
  }

  @Test("A --call that names nothing declared is a usage error with a did-you-mean, exit 64")
  func callTypo() {
    let run = ctxsim(
      "run", "Examples/Draft/ImageImporter.swift", "--call", "importImagez()")
    #expect(run.status == 64)
    #expect(
      run.err
        == """
        error: --call 'importImagez()': nothing in the files read declares importImagez()
          fix: did you mean importImages()?

        """)
    #expect(run.out.isEmpty)
  }

  @Test("A folder is read as a module: its files' types, extensions and calls, labelled by file")
  func folder() {
    let run = ctxsim(
      "run", "Examples/Draft/NotesApp", "--call", #"NoteImporter().importNotes(["Groceries"])"#,
      "--stop-at-first")
    #expect(run.status == 133)
    #expect(
      run.out.contains(#"wrongQueueContext at main[4].forEach.do[0] "NoteImporter.swift:10""#))
    // The same files named one by one draft the same scenario.
    let files = ["CoreDataStack.swift", "NSManagedObjectContext+Save.swift", "NoteImporter.swift"]
    let byFolder = ctxsim("draft", "Examples/Draft/NotesApp")
    let byFiles = ctxsim(arguments: ["draft"] + files.map { "Examples/Draft/NotesApp/" + $0 })
    #expect(byFolder.status == 0)
    #expect(byFolder.out == byFiles.out)
  }

  @Test("A --call on a receiver whose method nothing declares is a usage error too")
  func callTypoOnReceiver() {
    let run = ctxsim(
      "run", "Examples/Draft/NotesApp", "--call", #"NoteImporter().importNote(["a"])"#)
    #expect(run.status == 64)
    #expect(run.err.contains("did you mean importNotes()?"))
  }

  @Test("A local that shadows a parameter of the same name drafts to a scenario that runs")
  func draftFault() {
    // A local that shadows a dependency: once made a scenario that named itself.
    let source = """
      final class Grader {
        func grade(options: GradingOptions?) {
          var options = options ?? GradingOptions()
          print(options)
        }
      }
      """
    let run = ctxsim("run", "Grader.swift", files: ["Grader.swift": source])
    #expect(run.status != 65, "\(run.err)")
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
        #"Saver.swift:6:7: error: the model given with --model does not have what this line uses: Photo has no attribute or relationship "imageData""#
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
