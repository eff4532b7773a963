/// One `NSManagedObjectContext` during a run: its queue and the objects registered in it.
struct ManagedObjectContext {
  let description: ContextDescription
  /// The queue that owns the context: `main` for main-queue contexts, its own otherwise.
  let queue: Int
  /// Registered objects, in registration order, by their index in the object table.
  var registered: [ObjectReference] = []

  var name: String { description.name }
}
