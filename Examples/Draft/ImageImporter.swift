import CoreData

/// Imports images into a folder the screen shows. Written for `ctxsim draft`: it makes
/// the classic mistakes of saving from many threads, one of each.
final class ImageImporter {
  private let container: NSPersistentContainer
  var onImported: ((NSManagedObject) -> Void)?

  init(container: NSPersistentContainer) {
    self.container = container
  }

  /// One global-queue block per address, each with its own private context, used without
  /// `perform`; the folder comes from the screen's `viewContext`.
  func importImages(_ addresses: [URL], into folder: NSManagedObject) {
    for address in addresses {
      DispatchQueue.global().async {
        guard let bytes = try? Data(contentsOf: address) else { return }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = self.container.persistentStoreCoordinator
        let image = NSEntityDescription.insertNewObject(forEntityName: "Image", into: context)
        image.setValue(address.absoluteString, forKey: "sourceURL")
        image.setValue(bytes, forKey: "bytes")
        image.setValue(folder, forKey: "folder")
        try? context.save()
        DispatchQueue.main.async {
          self.onImported?(image)
        }
      }
    }
  }

  /// The main-queue `viewContext`, used from a global queue.
  func markAllViewed() {
    DispatchQueue.global().async {
      let context = self.container.viewContext
      let request = NSFetchRequest<NSManagedObject>(entityName: "Image")
      let images = try! context.fetch(request)
      for image in images {
        image.setValue(true, forKey: "isViewed")
      }
      try? context.save()
    }
  }
}
