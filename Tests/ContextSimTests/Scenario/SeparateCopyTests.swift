import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

/// The copy of a scenario each core of a search runs from (``Scenario/separateCopy()``).
@Suite("A scenario's copy for another core")
struct SeparateCopyTests {
  static let downloader = """
    {
      "title": "Two downloads",
      "model": {"Photo": {"attributes": {"url": "string", "image": "binary"}}},
      "store": {"Photo": [{"id": "p1", "url": "a"}, {"id": "p2", "url": "b"}]},
      "contexts": {"background": {"queue": "private"}},
      "main": [
        {"perform": "background", "do": [
          {"fetch": "Photo", "in": "background", "where": {"url": "a"}, "first": true, "as": "p"},
          {"set": "p.image", "to": "bytes"},
          {"save": "background"}
        ]},
        {"fetch": "Photo", "in": "background", "as": "all", "label": "off-queue"}
      ]
    }
    """

  @Test("The copy shares no storage with the scenario, and runs the same")
  func sharesNothing() throws {
    let original = try scenario(Self.downloader)
    let copy = original.separateCopy()
    #expect(address(of: copy.entities) != address(of: original.entities))
    #expect(
      address(of: copy.entities[0].attributes) != address(of: original.entities[0].attributes))
    #expect(address(of: copy.main) != address(of: original.main))
    #expect(address(of: copy.main[0].action.body) != address(of: original.main[0].action.body))
    #expect(copy.entities == original.entities)
    #expect(copy.file == original.file)
    let (ran, copyRan) = (run(original), run(copy))
    #expect(copyRan.lines == ran.lines)
    #expect(copyRan.kinds == [.wrongQueueContext])
  }

  @Test("A renamed scenario's copy keeps the new name")
  func renamed() throws {
    let copy = try scenario(Self.downloader).named("Lessons/01.json").separateCopy()
    #expect(copy.file == "Lessons/01.json")
  }

  @Test("The copy reads its data model from what decoding read, not from the files again")
  func dataModelReadOnce() throws {
    let files = memoryFiles([
      "Notes.xcdatamodeld/Notes.xcdatamodel/contents": xcodeContents(
        #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
      )
    ])
    let reads = Counter()
    let counting = DataModelFiles(directory: "") { path in
      reads.count += 1
      return files.read(path)
    }
    let json = #"{"title": "Notes", "model": "Notes.xcdatamodeld", "main": []}"#
    let original = try ScenarioDecoder.decode(
      Array(json.utf8), file: "notes.json", dataModels: counting)
    let readsToDecode = reads.count
    #expect(readsToDecode > 0)
    let copy = original.separateCopy()
    #expect(reads.count == readsToDecode)
    #expect(copy.entities == original.entities)
    #expect(copy.entities.map(\.name) == ["Note"])
    #expect(address(of: copy.entities) != address(of: original.entities))
  }

  @Test("A scenario with an Xcode data model explores the same on two cores as on one")
  func dataModelOnTwoCores() throws {
    let decoded = try photosFromModel()
    func run(_ workers: Int) -> Exploration {
      explore(
        decoded, strategy: .random(seed: 4), maxSchedules: 300, workers: workers,
        shrinking: false)
    }
    let (one, two) = (run(1), run(2))
    #expect(Set(one.outcomes.flatMap(\.signature).map(\.kind)) == [.wrongQueueContext])
    #expect(two.outcomes.map(\.signature) == one.outcomes.map(\.signature))
    #expect(two.outcomes.map(\.schedules) == one.outcomes.map(\.schedules))
    #expect(two.stepCounts == one.stepCounts)
  }

  @Test("A scenario that was not decoded is its own copy")
  func notDecoded() throws {
    var made = try scenario(Self.downloader)
    made.remake = nil
    #expect(address(of: made.separateCopy().entities) == address(of: made.entities))
  }

  private final class Counter { var count = 0 }

  private func address<T>(of array: [T]) -> UnsafeRawPointer? {
    array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }
}
