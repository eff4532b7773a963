import CoreData

/// Fetches an image's bytes: the network in the app, an answer at once in a test.
protocol ImageFetching: Sendable {
  func bytes(at address: URL) async throws -> Data
}

/// `ImageImporter` with its mistakes mended. Written for `ctxsim draft`: one background
/// context writes, inside `perform` only; the folder crosses as its object ID; the
/// downloads run at once in a task group and are saved one at a time.
@MainActor
final class ImageImporterFixed {
  private let writer: NSManagedObjectContext
  private let fetcher: any ImageFetching
  var onImported: ((NSManagedObjectID) -> Void)?

  init(container: NSPersistentContainer, fetcher: any ImageFetching) {
    container.viewContext.automaticallyMergesChangesFromParent = true
    writer = container.newBackgroundContext()
    writer.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
    self.fetcher = fetcher
  }

  /// Imports every address; returns the ones whose bytes could not be fetched.
  func importImages(_ addresses: [URL], into folder: NSManagedObject) async throws -> [URL] {
    let folderID = folder.objectID
    var missed: [URL] = []
    try await withThrowingTaskGroup(of: (URL, Data?).self) { group in
      for address in addresses {
        group.addTask { [fetcher] in (address, try? await fetcher.bytes(at: address)) }
      }
      for try await (address, bytes) in group {
        guard let bytes else {
          missed.append(address)
          continue
        }
        let id = try await store(bytes, from: address, in: folderID)
        onImported?(id)
      }
    }
    return missed
  }

  /// Marks every image viewed, on the writer's own queue.
  func markAllViewed() async throws {
    try await writer.perform { [writer] in
      let images = try writer.fetch(NSFetchRequest<NSManagedObject>(entityName: "Image"))
      for image in images {
        image.setValue(true, forKey: "isViewed")
      }
      try writer.save()
    }
  }

  private func store(_ bytes: Data, from address: URL, in folderID: NSManagedObjectID)
    async throws -> NSManagedObjectID
  {
    try await writer.perform { [writer] in
      let folder = try writer.existingObject(with: folderID)
      let request = NSFetchRequest<NSManagedObject>(entityName: "Image")
      request.predicate = NSPredicate(format: "sourceURL == %@", address.absoluteString)
      let image =
        try writer.fetch(request).first
        ?? NSEntityDescription.insertNewObject(forEntityName: "Image", into: writer)
      image.setValue(address.absoluteString, forKey: "sourceURL")
      image.setValue(bytes, forKey: "bytes")
      image.setValue(folder, forKey: "folder")
      do {
        try writer.save()
      } catch {
        writer.rollback()
        throw error
      }
      return image.objectID
    }
  }
}
