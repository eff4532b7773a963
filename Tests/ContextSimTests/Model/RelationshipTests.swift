import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("Relationships and delete rules")
struct RelationshipTests {
  @Test("Stored rows give one side of a relationship; the other side follows")
  func storedInverse() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"get": "album.photos", "as": "photos"},
         {"fetch": "Photo", "in": "viewContext", "first": true, "as": "photo"},
         {"get": "photo.album"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("read album-1.photos: [photo-1]"))
    #expect(trace.lines.contains("read photo-1.album: album-1"))
  }

  @Test("Setting a to-one keeps the inverse to-many in step, on both albums")
  func toOneKeepsInverse() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "trip"},
         {"insert": "Album", "into": "viewContext", "as": "home", "values": {"title": "Home"}},
         {"fetch": "Photo", "in": "viewContext", "first": true, "as": "photo"},
         {"set": "photo.album", "to": "$home"},
         {"get": "home.photos"}, {"get": "trip.photos"},
         {"save": "viewContext"},
         {"perform": "one", "do": [
           {"fetch": "Album", "in": "one", "where": {"title": "Home"}, "first": true, "as": "h"},
           {"get": "h.photos"}]}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(trace.lines.contains("read Album/t1.photos: [photo-1]"))
    #expect(trace.lines.contains("read album-1.photos: []"))
    #expect(trace.lines.last == "read Album/p2.photos: [photo-1]")
  }

  @Test("Setting a to-many sets each member's to-one")
  func toManyKeepsInverse() throws {
    let trace = run(
      try albums(
        #"""
        [{"insert": "Album", "into": "viewContext", "as": "home"},
         {"insert": "Photo", "into": "viewContext", "as": "p"},
         {"set": "home.photos", "to": ["$p"]},
         {"get": "p.album"}]
        """#))
    #expect(trace.lines.last == "read Photo/t2.album: Album/t1")
  }

  @Test("A one-to-one inverse moves: the old partner lets go")
  func oneToOne() throws {
    let s = try scenario(
      #"""
      {"title": "pairs", "model": {"Person": {"attributes": {"name": "string"},
         "relationships": {"partner": {"to": "Person", "inverse": "partner"}}}},
       "main": [
         {"insert": "Person", "into": "viewContext", "as": "a"},
         {"insert": "Person", "into": "viewContext", "as": "b"},
         {"insert": "Person", "into": "viewContext", "as": "c"},
         {"set": "a.partner", "to": "$b"},
         {"set": "c.partner", "to": "$b"},
         {"get": "a.partner"}, {"get": "b.partner"}]}
      """#)
    let trace = run(s)
    #expect(
      trace.lines.suffix(2) == ["read Person/t1.partner: nil", "read Person/t2.partner: Person/t3"])
  }

  @Test("Relating objects of two contexts raises NSInvalidArgumentException at the assignment")
  func crossContext() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"performAndWait": "one", "do": [
           {"insert": "Photo", "into": "one", "as": "photo"},
           {"set": "photo.album", "to": "$album", "label": "relate"}]}]
        """#))
    #expect(trace.kinds == [.crossContextRelationship])
    let violation = try #require(trace.violations.first)
    #expect(violation.labels == ["relate"])
    #expect(violation.termination == .uncaughtException)
    let crash = try #require(Messages.crashLine(violation))
    #expect(
      crash.hasPrefix(
        "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: 'Illegal attempt to establish a relationship 'album' between objects in different contexts (source = <NSManagedObject: 0x"
      ))
    #expect(crash.contains("(entity: Photo; id: x-coredata:///Photo/t"))
    #expect(crash.contains("destination = <NSManagedObject: 0x"))
    #expect(crash.contains("(entity: Album; id: x-coredata://"))
  }

  @Test("Inserting an object into a second context raises the single-context exception")
  func secondContext() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"performAndWait": "one", "do": [{"insert": "$album", "into": "one"}]}]
        """#))
    #expect(trace.kinds == [.objectInAnotherContext])
    #expect(
      trace.violations.first.flatMap(Messages.crashLine)?.contains(
        "may only be in (or observed by) a single NSManagedObjectContext") == true)
  }

  @Test("Delete rule nullify takes the object out of the other side")
  func nullify() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Photo", "in": "viewContext", "first": true, "as": "photo"},
         {"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"delete": "album"}, {"get": "photo.album"}, {"save": "viewContext"},
         {"count": "Album", "in": "viewContext"}, {"count": "Photo", "in": "viewContext"}]
        """#))
    #expect(trace.violations.isEmpty)
    #expect(
      trace.lines.suffix(5) == [
        "deleted album-1 in viewContext", "read photo-1.album: nil",
        "saved viewContext to the store: updated photo-1; deleted album-1",
        "counted 0 Album in viewContext", "counted 1 Photo in viewContext",
      ])
  }

  @Test("Delete rule cascade deletes what the object points at")
  func cascade() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"delete": "album"}, {"save": "viewContext"}, {"count": "Photo", "in": "viewContext"}]
        """#,
        model: "", extra: ""
      ).cascading)
    #expect(
      trace.lines.suffix(3) == [
        "deleted album-1 in viewContext, and by cascade photo-1",
        "saved viewContext to the store: deleted album-1, photo-1",
        "counted 0 Photo in viewContext",
      ])
  }

  @Test("Delete rule deny fails the save with 1600 while the other side is not empty")
  func deny() throws {
    let trace = run(
      try albums(
        #"""
        [{"fetch": "Album", "in": "viewContext", "first": true, "as": "album"},
         {"delete": "album"}, {"save": "viewContext", "label": "save"},
         {"count": "Album", "in": "viewContext"}]
        """#
      ).withDeleteRule("deny"))
    #expect(trace.kinds == [.validationFailed])
    #expect(
      trace.violations[0].headline.contains("threw 1600: album-1 cannot be deleted"))
  }
}

extension Scenario {
  /// The same albums scenario with Album.photos given another delete rule.
  func withDeleteRule(_ rule: String) -> Scenario {
    var copy = self
    let i = copy.entities.firstIndex { $0.name == "Album" }!
    copy.entities[i].relationships[0].deleteRule = Relationship.DeleteRule(rawValue: rule)!
    return copy
  }

  var cascading: Scenario { withDeleteRule("cascade") }
}
