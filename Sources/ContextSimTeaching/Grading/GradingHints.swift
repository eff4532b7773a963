import ContextSimCore
import ContextSimReports

/// ctxsim's own hints, for a failure the exercise's brief gives no hint for: one per
/// violation kind, and one for each other criterion.
///
/// The switch over ``ViolationKind`` is exhaustive, so a new kind cannot be added without
/// saying what to try when an attempt still shows it.
public enum GradingHints {
  /// The hint for a topic: a violation kind's name, `store`, `viewContext` or `setup`.
  public static func generic(_ topic: String) -> String {
    switch topic {
    case "store":
      return "The fix must still do the work: keep the inserts, the changes and the save "
        + "that writes them, and check that the save runs in every schedule."
    case "viewContext":
      return "viewContext shows what it holds until it merges other contexts' saves or "
        + "refreshes its objects: automaticallyMergesChangesFromParent, or a merge on the "
        + "main queue once the save is done."
    case "setup":
      return "Put back the model, the rows at launch and the flags as the exercise gives "
        + "them, and fix the app's steps instead."
    default:
      guard let kind = ViolationKind(rawValue: topic) else {
        return "See docs/model.md for the rule."
      }
      return generic(kind)
    }
  }

  private static func generic(_ kind: ViolationKind) -> String {
    switch kind {
    case .wrongQueueContext:
      "A private-queue context may be used only on its own queue: put every line that "
        + "uses it, the save included, inside its perform or performAndWait."
    case .wrongQueueObject:
      "A managed object belongs to its context's queue. Hand its objectID to the other "
        + "queue and look it up there in that queue's own context."
    case .crossContextRelationship:
      "A relationship joins objects of one context: look the other object up by its "
        + "objectID in the context of the object you relate it to."
    case .faultOnDeletedObject:
      "The row behind this object is gone, or was never saved where this context can see "
        + "it: look it up with existingObject(with:) after the save, and handle the error."
    case .objectNotFound:
      "existingObject(with:) found no row for the ID: an unsaved object's ID is temporary. "
        + "Save, or obtainPermanentIDs, before handing the ID to another context."
    case .mergeConflict:
      "Two contexts changed the same row. Set a merge policy on the context that saves "
        + "second, one that keeps both edits where they touch different properties."
    case .constraintConflict:
      "Two rows share a unique value. Find the existing row before inserting, or set a "
        + "merge policy that folds the duplicates together."
    case .validationFailed:
      "The save fails the model's rules: give every non-optional attribute and "
        + "relationship a value before saving."
    case .uncaughtError:
      "try! crashes when the call throws. Make the call succeed in every schedule, or "
        + "catch the error and handle it."
    case .discardedError:
      "try? throws the error away, and the work with it. Use try, and make the call "
        + "succeed or handle its error."
    case .dataRace:
      "Two threads reach the same variable with nothing ordering them: do both accesses "
        + "on one serial queue."
    case .deadlock:
      "A thread waits for a queue that waits for it. Use perform instead of "
        + "performAndWait, or async instead of sync, on one side."
    case .corruption:
      "Two threads were inside one context at once. Run the flag on, and put every use "
        + "of the context inside its perform."
    case .expectationFailed:
      "The app checked something that did not hold at that moment: see what the step "
        + "expected and which schedule reaches it before the work is done."
    case .unknownKey:
      "The entity has no such key: check the model's attribute and relationship names."
    case .objectInAnotherContext:
      "An object lives in one context for life. Pass its objectID (a permanent one) and "
        + "look it up in the other context."
    case .invalidRequest:
      "Core Data refuses the request as it is made: check what the request is given."
    }
  }
}
