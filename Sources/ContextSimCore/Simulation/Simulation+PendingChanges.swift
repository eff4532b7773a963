/// `processPendingChanges`: when a context announces its changes (semantics-2 §2.6).
///
/// Core Data collects a context's inserts, edits and deletes and announces them in one
/// objects-did-change notification when it processes them: at the end of each `perform`
/// block (not after `performAndWait`), at the start of a save, at the end of a merge, and
/// for a main-queue context at the end of each pass of the main run loop, which ctxsim
/// takes to be the end of the main thread's launch work and of each main-queue block. Its
/// observers, fetched results controllers among them, run right there, on that thread.
extension Simulation {
  /// Changes made in a context since it last processed them, in the order first made.
  struct PendingChanges {
    var inserted: [ObjectReference] = []
    var updated: [ObjectReference] = []
    var deleted: [ObjectReference] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
  }

  /// How an object changed, for the next objects-did-change.
  enum PendingChange {
    case inserted, updated, deleted
  }

  /// Notes a change to announce. An object inserted since the last announcement is
  /// announced once, as inserted; one inserted and deleted again, not at all.
  mutating func noteChange(_ change: PendingChange, of ref: ObjectReference) {
    guard scenario.features.observes else { return }
    let c = graph[ref].context
    var pending = changes.unprocessed[c] ?? PendingChanges()
    let isNew = pending.inserted.contains(ref)
    switch change {
    case .inserted:
      pending.inserted.append(ref)
    case .updated:
      if !isNew && !pending.updated.contains(ref) { pending.updated.append(ref) }
    case .deleted:
      if isNew {
        pending.inserted.removeAll { $0 == ref }
      } else {
        pending.updated.removeAll { $0 == ref }
        if !pending.deleted.contains(ref) { pending.deleted.append(ref) }
      }
    }
    changes.unprocessed[c] = pending
  }

  /// Announces a context's pending changes, if it has any and anyone listens.
  mutating func processPendingChanges(_ c: Int) {
    guard let pending = changes.unprocessed.removeValue(forKey: c), !pending.isEmpty else { return }
    post(
      PostedNotification(
        name: .objectsDidChange, context: c, inserted: pending.inserted.map(Value.object),
        updated: pending.updated.map(Value.object), deleted: pending.deleted.map(Value.object)))
  }

  /// The end of a block on queue `q`: each context of that queue processes its changes.
  /// Returns whether observers now run on the thread before the block may end.
  mutating func processPendingChanges(endingBlockOn q: Int) -> Bool {
    guard !changes.unprocessed.isEmpty else { return false }
    for c in changes.unprocessed.keys.sorted() where graph.contexts[c].queue == q {
      processPendingChanges(c)
    }
    guard !center.undelivered.isEmpty else { return false }
    deliverPosted()
    return true
  }
}
