import ContextSimCore

/// Every sentence a report shows about a run, in one place so the wording stays consistent.
public enum Messages {
  /// The line Core Data logs at launch when the flag is on (semantics §1.4).
  public static let assertionsEnabled =
    "CoreData: annotation: Core Data multi-threading assertions enabled."
  /// The method a ConcurrencyDebug violation stops in (semantics §1.6).
  public static let trapSymbol =
    "+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]"

  /// What a step did, in words, or nil for bookkeeping shown only when `allSteps` is true.
  public static func describe(_ effect: Effect, allSteps: Bool) -> String? {
    switch effect {
    case .fetched(let entity, let context, let ids):
      switch ids.count {
      case 0: return "fetched no \(entity) into \(context)"
      case 1: return "fetched \(ids[0]) into \(context)"
      default: return "fetched \(ids.count) \(entity) into \(context): \(list(ids))"
      }
    case .counted(let entity, let context, let n): return "counted \(n) \(entity) in \(context)"
    case .inserted(let id, let context): return "inserted \(id) into \(context)"
    case .read(let id, let key, let value, _): return "read \(id).\(key): \(value.swiftDescription)"
    case .readAfterReset(let id, let key, let value, let context):
      return
        "read \(id).\(key): \(value.swiftDescription); \(context) was reset, so the fault has no context to load from"
    case .readNil(let variable): return "\(variable) is nil, so nothing happens"
    case .wrote(let id, let key, let value, _):
      return "set \(id).\(key) = \(value.swiftDescription)"
    case .saved(let context, let inserted, let updated, let deleted):
      return "saved \(context) to the store: " + changes(inserted, updated, deleted)
    case .savedToParent(let context, let parent, let inserted, let updated, let deleted):
      return "saved \(context) into its parent \(parent): " + changes(inserted, updated, deleted)
    case .deleted(let id, let context, let cascaded):
      return "deleted \(id) in \(context)"
        + (cascaded.isEmpty ? "" : ", and by cascade \(list(cascaded))")
    case .merged(let into, let from, let refreshed, let deleted, _, let faultedIn):
      if refreshed.isEmpty && deleted.isEmpty && faultedIn.isEmpty {
        return "merged \(from)'s save into \(into): nothing it holds changed"
      }
      return "merged \(from)'s save into \(into): "
        + [
          refreshed.isEmpty ? nil : "refreshed \(list(refreshed))",
          deleted.isEmpty ? nil : "deleted \(list(deleted))",
          faultedIn.isEmpty ? nil : "faulted in \(list(faultedIn))",
        ]
        .compactMap { $0 }.joined(separator: "; ")
    case .listed(let controller, let objects):
      return objects.isEmpty
        ? "\(controller) lists nothing" : "\(controller) lists \(list(objects))"
    case .refreshed(let id, let merged):
      return merged
        ? "refreshed \(id), keeping its changes" : "refreshed \(id), dropping its changes"
    case .refreshedAll(let context, let objects):
      return objects.isEmpty
        ? "refreshed \(context): it holds no objects"
        : "refreshed \(list(objects)) in \(context), keeping their changes"
    case .reset(let context, let forgotten):
      return "reset \(context): forgot \(forgotten) object\(forgotten == 1 ? "" : "s")"
    case .rolledBack(let context): return "rolled back \(context)'s unsaved changes"
    case .obtainedPermanentIDs(let context, let ids):
      return ids.isEmpty
        ? "obtained permanent IDs in \(context): nothing inserted"
        : "obtained permanent IDs in \(context): \(list(ids))"
    case .batchUpdated(let entity, let count):
      return "batch-updated \(count) \(entity) row\(count == 1 ? "" : "s") in the store"
    case .batchDeleted(let entity, let ids, let cascaded):
      return "batch-deleted \(ids.count) \(entity) row\(ids.count == 1 ? "" : "s") in the store"
        + (ids.isEmpty ? "" : ": \(list(ids))")
        + (cascaded.isEmpty ? "" : ", and by cascade \(list(cascaded))")
    case .batchInserted(let entity, let ids):
      return "batch-inserted \(ids.count) \(entity) row\(ids.count == 1 ? "" : "s") into the store"
        + (ids.isEmpty ? "" : ": \(list(ids))")
    case .mergesOnQueue(let context, let queue, let blocks):
      // Blocking on another queue is what this call's deadlocks are made of: always shown.
      if blocks { return "merging into \(context): blocks until \(queue) is free" }
      return allSteps ? "merges into \(context) on \(queue)" : nil
    case .recordedTransaction(let token, let author, let contextName):
      return "history records transaction \(token)"
        + (author.map { ", author \"\($0)\"" } ?? "")
        + (contextName.map { ", context name \"\($0)\"" } ?? "")
    case .postedRemoteChange(_, let observers):
      return
        "the coordinator posts NSPersistentStoreRemoteChange to \(observers) observer\(observers == 1 ? "" : "s") on a private thread; the writer does not wait"
    case .fetchedHistory(let context, let after, let tokens):
      let from = after.map { "after token \($0)" } ?? "from the start"
      let found =
        tokens.isEmpty
        ? "no transactions"
        : "transaction\(tokens.count == 1 ? "" : "s") "
          + tokens.map(String.init).joined(separator: ", ")
      return "fetched history \(from) in \(context): \(found)"
    case .createdContext(let name, let queue, let parent):
      return allSteps
        ? "made context \(name) on queue \(queue), parent \(parent ?? "the store")" : nil
    case .savedNothing(let context): return "saved \(context): no changes"
    case .lookedUp(let id, let context, let registered, let existing):
      if existing { return "fetched \(id) into \(context) by its object ID" }
      return registered
        ? "found \(id) already in \(context) by its object ID"
        : "got a fault for \(id) in \(context) by its object ID"
    case .printed(let text): return "print: \(text)"
    case .notModelled(let why): return "NOT MODELLED  \(why)"
    case .varRead(let name, let value): return "read self.\(name): \(value.swiftDescription)"
    case .varWritten(let name, let value): return "self.\(name) = \(value.swiftDescription)"
    case .expectationHeld(let what): return "expect \(what): holds"
    case .enqueued(let queue): return allSteps ? "enqueued a block on \(queue)" : nil
    case .postedEvent: return "a later event: it runs on main once the app is idle"
    case .entered(let queue, let reentrant):
      return allSteps
        ? "runs a block on \(queue)\(reentrant ? " (re-entrant)" : "") and waits" : nil
    case .ranInline(let queue):
      return allSteps
        ? "runs the block right here, without suspending: the task is already on \(queue)"
        : nil
    case .waits(let queue): return allSteps ? "blocks until \(queue) is free" : nil
    case .asksParent(let parent, let queue, let blocks):
      // Blocking on a parent is what nested-context deadlocks are made of: always shown.
      if blocks { return "asks its parent \(parent): blocks until \(queue) is free" }
      return allSteps ? "asks its parent \(parent), on \(queue)" : nil
    case .objectID(let id): return allSteps ? "took the object ID \(id)" : nil
    case .loop(let count): return allSteps ? "loops \(count) time\(count == 1 ? "" : "s")" : nil
    case .threw(let error): return allSteps ? "threw \(error.description)" : nil
    case .property(let owner, let name, let value, let isSet):
      return isSet
        ? "set \(owner).\(name) = \(value.swiftDescription)"
        : "read \(owner).\(name): \(value.swiftDescription)"
    case .observing(let name, let object, let queue):
      return allSteps
        ? "observes \(name) of \(object ?? "every context"), delivered on \(queue ?? "the posting thread")"
        : nil
    case .removedObserver(let name): return allSteps ? "removed its \(name) observer" : nil
    case .posted(let name, let context, let observers):
      return "\(context) posts \(name) to \(observers) observer\(observers == 1 ? "" : "s")"
    case .observerRuns(let queue):
      return queue.map { "the observer runs on \($0); the posting thread waits for it" }
        ?? "the observer runs here, on the posting thread"
    case .caught(let error): return "threw \(error.code), caught: the catch block handles it"
    case .expectationFailed, .trapped: return nil
    case .taskStarted(let queue):
      return allSteps
        ? "started a task on \(queue == "main" ? "the main actor" : "the global executor")" : nil
    case .awaits(let queue):
      return allSteps ? "awaits a block on \(queue), letting go of its thread" : nil
    case .groupStarted(let children):
      return allSteps ? "started \(children) child task\(children == 1 ? "" : "s")" : nil
    case .skipped: return allSteps ? "skipped: its condition does not hold" : nil
    case .bound(let name, let value):
      return allSteps ? "let \(name) = \(value.swiftDescription)" : nil
    }
  }

  private static func changes(_ inserted: [ObjectID], _ updated: [ObjectID], _ deleted: [ObjectID])
    -> String
  {
    var parts: [String] = []
    if !inserted.isEmpty { parts.append("inserted \(list(inserted))") }
    if !updated.isEmpty { parts.append("updated \(list(updated))") }
    if !deleted.isEmpty { parts.append("deleted \(list(deleted))") }
    return parts.isEmpty ? "no changes left to write" : parts.joined(separator: "; ")
  }

  private static func list(_ ids: [ObjectID]) -> String {
    let shown = ids.prefix(5).map(\.description).joined(separator: ", ")
    return ids.count > 5 ? shown + ", …" : shown
  }

  /// A short tag for a violation's first line.
  public static func tag(_ violation: Violation) -> String {
    switch violation.detail {
    case .wrongQueue: "TRAP"
    case .deadlock: "DEADLOCK"
    case .expectationFailed: "EXPECT"
    case .caughtError: "ERROR"
    case .discardedError: "DISCARDED"
    case .faultOnDeletedObject: "FAULT"
    case .dataRace: "RACE"
    case .corruption: "CRASH"
    case .uncaughtError, .uncaughtException: "CRASH"
    }
  }

  /// What the error's `userInfo` lists: each conflict or validation failure, at most five.
  public static func errorDetails(_ violation: Violation) -> [String] {
    let details: [String]
    switch violation.detail {
    case .caughtError(let error, _), .discardedError(let error, _), .uncaughtError(let error, _):
      details = error.details
    default:
      details = []
    }
    return details.count > 5 ? details.prefix(5) + ["… and \(details.count - 5) more"] : details
  }

  /// What the real app prints or shows as it dies of this violation, if it does.
  public static func crashLine(_ violation: Violation) -> String? {
    switch violation.detail {
    case .wrongQueue: return trapSymbol
    case .uncaughtError(let error, _):
      return "Fatal error: 'try!' expression unexpectedly raised an error: \(error.description)"
    case .corruption(_, _, let method, _):
      return "Thread crashed: EXC_BAD_ACCESS (SIGSEGV) in \(method)"
    case .dataRace(let variable, let access, let previous):
      return "WARNING: ThreadSanitizer: data race on self.\(variable): "
        + "\(access.isWrite ? "write" : "read") by \(access.thread) at step \(access.step), "
        + "previous \(previous.isWrite ? "write" : "read") by \(previous.thread) at step \(previous.step)"
    case .uncaughtException(_, let exception):
      return
        "*** Terminating app due to uncaught exception '\(exception.name)', reason: '\(exception.reason)'"
    case .deadlock where violation.termination == .watchdog:
      return "the main thread never returns: the system watchdog kills the app"
    default: return nil
    }
  }
}
