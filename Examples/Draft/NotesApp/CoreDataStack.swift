import CoreData

/// The app's one stack: the container, the main queue's context for the screens, and a
/// private context for imports, made the first time one runs.
final class CoreDataStack {
  static let shared = CoreDataStack()

  let container: NSPersistentContainer

  lazy var importContext: NSManagedObjectContext = {
    let context = container.newBackgroundContext()
    context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
    return context
  }()

  var mainContext: NSManagedObjectContext {
    container.viewContext
  }

  init() {
    container = NSPersistentContainer(name: "Notes")
    container.loadPersistentStores { _, error in
      if let error { fatalError("Store failed to load: \(error)") }
    }
  }

  func saveMain() {
    if mainContext.hasChanges {
      try? mainContext.save()
    }
  }
}
