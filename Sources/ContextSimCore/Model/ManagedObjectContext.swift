/// One `NSManagedObjectContext` during a run: its queue, its parent, and its objects.
struct ManagedObjectContext {
  /// A name unique in the run: the scenario's, with `#2`, `#3` … when a step makes
  /// another context of the same name.
  let name: String
  /// Its options; steps may set some while the app runs (`mergePolicy`, say).
  var description: ContextDescription
  /// The queue that owns the context: `main` for main-queue contexts, its own otherwise.
  let queue: Int
  /// The parent context, or nil for a root context on the store coordinator.
  let parent: Int?
  /// Made by a step at run time, so found through the variable its step bound.
  var isRuntime = false
}

/// The objects registered in one context, kept by the ``ObjectGraph`` apart from the
/// context's name and options: a run changes these at almost every step, and a copy of the
/// run then copies only these, not every context's names and options with them.
struct Registrations {
  /// Registered objects, in registration order. Only the ``ObjectGraph`` changes this and
  /// `byID`, so the two always list the same objects.
  var registered: [ObjectReference] = []
  /// The same objects by their current object ID.
  var byID = SmallDictionary<RegisteredID>()
}

/// An object ID and the instance registered under it in one context.
struct RegisteredID: SmallDictionaryEntry {
  let key: ObjectID
  var value: ObjectReference
}
