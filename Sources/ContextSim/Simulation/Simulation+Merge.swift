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
    let parent = contexts[c].parent
    for r in contexts.indices
    where r != c && contexts[r].description.automaticallyMergesChangesFromParent {
      let isChild = contexts[r].parent == c
      let isSibling = parent != nil && contexts[r].parent == parent
      let isOtherRoot = parent == nil && contexts[r].parent == nil
      guard isChild || isSibling || isOtherRoot else { continue }
      let block = Block(
        steps: [], scope: Scope(),
        origin: [.enqueued(queue: queues[contexts[r].queue].name, thread: threads[current].name)]
          + backtrace(of: current, at: stepIndex),
        merge: Merge(changes: changes, into: r, causedBy: stepIndex))
      enqueue(block, on: contexts[r].queue)
    }
  }

  /// `mergeChanges(fromContextDidSave:)`: objects this context holds are refreshed with
  /// their local changes kept on top, and deleted ones are deleted here too. Objects it
  /// does not hold are left alone (semantics §7.3).
  mutating func merge(_ changes: ChangeSet, into r: Int, automatic: Bool) {
    touch(.context(r), write: true)
    var refreshed: [ObjectID] = []
    var deleted: [ObjectID] = []
    for id in changes.updated {
      guard let ref = registered(id, in: r), !objects[ref.index].isFault else { continue }
      guard let row = row(id, seenFrom: contexts[r].parent) else { continue }
      objects[ref.index].snapshot = contextForm(row.values, entity: id.entity, in: r)
      objects[ref.index].snapshotVersion = row.version
      refreshed.append(id)
    }
    for id in changes.deleted {
      guard let ref = registered(id, in: r) else { continue }
      unregister(ref)
      objects[ref.index].isDeleted = true
      deleted.append(id)
    }
    record(
      .merged(
        into: contexts[r].name, from: changes.source, refreshed: refreshed, deleted: deleted,
        automatic: automatic))
  }

  /// `refresh(_:mergeChanges:)`: without merging, the object drops its changes and turns
  /// back into a fault; with it, it reloads and keeps its changes on top.
  mutating func refresh(_ ref: ObjectReference, merge: Bool) {
    let object = objects[ref.index]
    if !merge {
      objects[ref.index].changes = [:]
      objects[ref.index].isFault = !object.isInserted
      if !object.isInserted { objects[ref.index].snapshot = [:] }
    } else if !object.isFault, let row = row(object.id, seenFrom: contexts[object.context].parent) {
      objects[ref.index].snapshot = contextForm(
        row.values, entity: object.entity, in: object.context)
      objects[ref.index].snapshotVersion = row.version
    }
    record(.refreshed(object.id, merged: merge))
  }

  /// `reset()`: the context forgets every object; what the app still holds is detached.
  mutating func reset(_ c: Int) {
    let forgotten = contexts[c].registered
    for ref in forgotten { objects[ref.index].isDetached = true }
    contexts[c].registered = []
    contexts[c].byID = [:]
    record(.reset(context: contexts[c].name, forgotten: forgotten.count))
  }

  /// `rollback()`: inserts are undone, changes and deletes discarded.
  mutating func rollback(_ c: Int) {
    for ref in contexts[c].registered {
      if objects[ref.index].isInserted {
        unregister(ref)
        objects[ref.index].isDetached = true
      }
      objects[ref.index].changes = [:]
      objects[ref.index].isDeleted = false
    }
    record(.rolledBack(context: contexts[c].name))
  }
}

/// A merge waiting on the receiving context's queue.
struct Merge {
  var changes: Simulation.ChangeSet
  var into: Int
  /// The step whose save sent it, for reports.
  var causedBy: Int
}
