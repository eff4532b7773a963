import CoreData

extension NSManagedObjectContext {
  /// Saves when there is something to save.
  func saveIfNeeded() {
    guard hasChanges else { return }
    try? save()
  }
}
