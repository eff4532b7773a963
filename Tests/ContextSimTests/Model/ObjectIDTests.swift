import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("ObjectID: the handle names a row in reports and never decides equality")
struct ObjectIDTests {
  @Test("A handle set, read, replaced and removed reads back as set")
  func handleRoundTrip() {
    var id = ObjectID(entity: "Note", kind: .permanent(1), handle: "n1")
    #expect(id.handle == "n1")
    #expect(id.description == "n1")
    id.handle = "note-2"
    #expect(id.handle == "note-2")
    id.handle = nil
    #expect(id.handle == nil)
    #expect(id.description == "Note/p1")
    #expect(ObjectID(entity: "Note", kind: .temporary(3)).handle == nil)
    #expect(ObjectID(entity: "Note", kind: .temporary(3)).description == "Note/t3")
  }

  @Test("Two IDs of one row are equal, hash alike, with or without a handle")
  func handleIsNotIdentity() {
    let named = ObjectID(entity: "Note", kind: .permanent(1), handle: "n1")
    let plain = ObjectID(entity: "Note", kind: .permanent(1))
    #expect(named == plain)
    #expect(Set([named, plain]).count == 1)
    #expect(named != ObjectID(entity: "Tag", kind: .permanent(1), handle: "n1"))
    #expect(named != ObjectID(entity: "Note", kind: .temporary(1), handle: "n1"))
  }
}
