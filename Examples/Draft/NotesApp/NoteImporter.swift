import CoreData

/// Turns downloaded titles into notes.
final class NoteImporter {
  let stack = CoreDataStack.shared

  func importNotes(_ titles: [String]) {
    let context = stack.importContext
    for title in titles {
      let note = Note(context: context)
      note.title = title
    }
    context.saveIfNeeded()
  }
}
