import Testing

@testable import ContextSim
@testable import ContextSimCore
@testable import ContextSimDSL
@testable import ContextSimDraft
@testable import ContextSimReports
@testable import ContextSimTeaching

@Suite("The object graph: one instance per object ID in each context")
struct ObjectGraphTests {
  /// A graph with two root contexts, `viewContext` (0) and `background` (1).
  private func twoContexts() throws -> ObjectGraph {
    let scenario = try notes("[]")
    var graph = ObjectGraph()
    for (i, description) in scenario.contexts.enumerated() {
      graph.add(
        ManagedObjectContext(
          name: description.name, description: description, queue: i, parent: nil))
    }
    return graph
  }

  private let note1 = ObjectID(entity: "Note", kind: .permanent(1))

  @Test("A context hands back the instance it has registered for an ID, and makes a fault once")
  func oneInstancePerID() throws {
    var graph = try twoContexts()
    let first = graph.object(for: note1, in: 0)
    #expect(graph[first].isFault)
    #expect(graph.object(for: note1, in: 0) == first)
    #expect(graph.registered(note1, in: 0) == first)
    let other = graph.object(for: note1, in: 1)
    #expect(other != first, "each context has an instance of its own")
    #expect(graph.registeredObjects(in: 0) == [first])
  }

  @Test("Temporary IDs are numbered across the run in insertion order")
  func temporaryIDs() throws {
    var graph = try twoContexts()
    let a = graph.insert("Note", into: 0, values: ["title": .string("a")])
    let b = graph.insert("Note", into: 1, values: [:])
    #expect(graph[a].id == ObjectID(entity: "Note", kind: .temporary(1)))
    #expect(graph[b].id == ObjectID(entity: "Note", kind: .temporary(2)))
    #expect(graph[a].isInserted && !graph[a].isFault)
    #expect(graph[a].value("title") == .string("a"))
  }

  @Test("A new ID moves the object's registration with it")
  func reassignMovesRegistration() throws {
    var graph = try twoContexts()
    let ref = graph.insert("Note", into: 0, values: [:])
    let temporary = graph[ref].id
    let permanent = ObjectID(entity: "Note", kind: .permanent(3))
    graph.reassign(ref, to: permanent)
    #expect(graph[ref].id == permanent)
    #expect(graph.registered(permanent, in: 0) == ref)
    #expect(graph.registered(temporary, in: 0) == nil)
  }

  @Test("An unregistered object keeps its state but is no longer found, even under a new ID")
  func unregister() throws {
    var graph = try twoContexts()
    let ref = graph.object(for: note1, in: 0)
    graph.unregister(ref, because: .deletedAndSaved)
    #expect(graph[ref].registration == .deletedAndSaved && !graph[ref].hasContext)
    #expect(graph.registered(note1, in: 0) == nil)
    #expect(graph.registeredObjects(in: 0).isEmpty)
    graph.reassign(ref, to: ObjectID(entity: "Note", kind: .permanent(2)))
    #expect(graph.registered(graph[ref].id, in: 0) == nil)
    #expect(graph.object(for: note1, in: 0) != ref)
  }

  @Test("reset forgets every object of one context, each now a fault with no changes and its ID")
  func reset() throws {
    var graph = try twoContexts()
    let kept = graph.object(for: note1, in: 1)
    let a = graph.object(for: note1, in: 0)
    let b = graph.insert("Note", into: 0, values: ["title": .string("draft")])
    graph[b].changes["title"] = .string("edited")
    let inserted = graph[b].id
    #expect(graph.reset(0) == [a, b])
    for ref in [a, b] {
      #expect(graph[ref].registration == .forgottenByReset && !graph[ref].hasContext)
      #expect(graph[ref].isFault && !graph[ref].hasChanges)
      #expect(graph[ref].value("title") == .null)
    }
    #expect(graph[a].id == note1 && graph[b].id == inserted)
    #expect(graph.registeredObjects(in: 0).isEmpty)
    #expect(graph.registered(note1, in: 0) == nil)
    #expect(graph.registered(note1, in: 1) == kept)
    #expect(graph[kept].registration == .registered)
  }

  @Test("Values cross contexts with object references turned into object IDs, in lists too")
  func idForm() throws {
    var graph = try twoContexts()
    let ref = graph.object(for: note1, in: 0)
    let values: NamedValues = [
      "note": .object(ref), "notes": .list([.object(ref)]), "title": .string("a"),
    ]
    #expect(
      graph.idForm(values) == [
        "note": .objectID(note1), "notes": .list([.objectID(note1)]), "title": .string("a"),
      ])
  }

  @Test("Declared contexts are found by name; contexts made at run time are not")
  func declaredContexts() throws {
    var graph = try twoContexts()
    let description = graph.contexts[1].description
    let made = graph.add(
      ManagedObjectContext(
        name: "background#2", description: description, queue: 2, parent: nil, isRuntime: true))
    #expect(made == 2)
    #expect(graph.declaredContext(named: "background") == 1)
    #expect(graph.declaredContext(named: "background#2") == nil)
  }
}
