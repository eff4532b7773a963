/// Changes reaching other contexts: automatic merges after a save, merges after a batch
/// update, and the calls that drop or reload what a context holds.
extension Simulation {
  /// What one save changed, by object ID: the did-save notification's content.
  struct ChangeSet: Sendable {
    var source: String
    var inserted: [ObjectID] = []
    var updated: [ObjectID] = []
    var deleted: [ObjectID] = []
  }

  /// Sends a save to the contexts that merge it automatically (semantics §7.1, §12 h).
  ///
  /// After a save to the store, every other root context and every child of the saver
  /// that has `automaticallyMergesChangesFromParent` merges it; after a child's save into
  /// its parent, the parent's other children with the flag do. Each merge is a block
  /// enqueued on the receiver's own queue, run after the save returns.
  mutating func notifySaved(_ changes: ChangeSet, by c: Int) {
    let parent = graph.contexts[c].parent
    for r in graph.contexts.indices
    where r != c && graph.contexts[r].description.automaticallyMergesChangesFromParent {
      let isChild = graph.contexts[r].parent == c
      let isSibling = parent != nil && graph.contexts[r].parent == parent
      let isOtherRoot = parent == nil && graph.contexts[r].parent == nil
      guard isChild || isSibling || isOtherRoot else { continue }
      let block = Block(
        steps: [], scope: newScope(),
        origin: origin(onto: graph.contexts[r].queue, at: now.index),
        merge: Merge(changes: changes, into: r, causedBy: now.index))
      enqueue(block, on: graph.contexts[r].queue)
    }
  }

  /// `mergeChanges(fromContextDidSave:)`: objects this context holds are refreshed with
  /// their local changes kept on top, and deleted ones are deleted here too. Other updated
  /// objects are left alone (semantics §7.3); new ones are faulted in, as the header says,
  /// so the merge's objects-did-change lists them for a fetched results controller.
  mutating func merge(_ changes: ChangeSet, into r: Int, automatic: Bool) {
    touch(.context(r), write: true)
    var refreshed: [ObjectID] = []
    var deleted: [ObjectID] = []
    var announced = PendingChanges()
    for id in changes.inserted where graph.registered(id, in: r) == nil {
      announced.inserted.append(graph.object(for: id, in: r))
    }
    for id in changes.updated {
      guard let ref = graph.registered(id, in: r), !graph[ref].isFault else { continue }
      guard let row = row(id, seenFrom: graph.contexts[r].parent) else { continue }
      graph[ref].snapshot = contextForm(row.values, entity: id.entity, in: r)
      graph[ref].snapshotVersion = row.version
      refreshed.append(id)
      announced.updated.append(ref)
    }
    for id in changes.deleted {
      guard let ref = graph.registered(id, in: r) else { continue }
      graph.unregister(ref, because: .deletedAndSaved)
      graph[ref].isDeleted = true
      deleted.append(id)
      announced.deleted.append(ref)
    }
    record(
      .merged(
        into: graph.contexts[r].name, from: changes.source, refreshed: refreshed, deleted: deleted,
        automatic: automatic, faultedIn: announced.inserted.map { graph[$0].id }))
    // The merge ends by processing the receiver's changes: its objects-did-change.
    guard !announced.isEmpty else { return }
    post(
      PostedNotification(
        name: .objectsDidChange, context: r, inserted: announced.inserted.map(Value.object),
        updated: announced.updated.map(Value.object), deleted: announced.deleted.map(Value.object)))
  }

  /// `refresh(_:mergeChanges:)`: without merging, the object drops its changes and turns
  /// back into a fault; with it, it reloads and keeps its changes on top. `recorded`: false
  /// when the caller records one line for many objects.
  mutating func refresh(_ ref: ObjectReference, merge: Bool, recorded: Bool = true) {
    let object = graph[ref]
    if !merge {
      graph[ref].changes = [:]
      graph[ref].isFault = !object.isInserted
      if !object.isInserted { graph[ref].snapshot = [:] }
    } else if !object.isFault,
      let row = row(object.id, seenFrom: graph.contexts[object.context].parent)
    {
      graph[ref].snapshot = contextForm(
        row.values, entity: object.entity, in: object.context)
      graph[ref].snapshotVersion = row.version
    }
    if recorded { record(.refreshed(object.id, merged: merge)) }
  }

  /// `reset()`: the context forgets every object; what the app still holds is a fault with
  /// no context (semantics-2 §5.1).
  mutating func reset(_ c: Int) {
    changes.unprocessed[c] = nil
    let forgotten = graph.reset(c)
    record(.reset(context: graph.contexts[c].name, forgotten: forgotten.count))
  }

  /// `rollback()`: inserts are undone, changes and deletes discarded.
  mutating func rollback(_ c: Int) {
    changes.unprocessed[c] = nil
    for ref in graph.registeredObjects(in: c) {
      if graph[ref].isInserted {
        graph.unregister(ref, because: .insertRolledBack)
      }
      graph[ref].changes = [:]
      graph[ref].isDeleted = false
    }
    record(.rolledBack(context: graph.contexts[c].name))
  }
}

/// A merge waiting on the receiving context's queue.
struct Merge {
  var changes: Simulation.ChangeSet
  var into: Int
  /// The step whose save sent it, for reports.
  var causedBy: Int
}
