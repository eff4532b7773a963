import Foundation
import Testing

@testable import ContextSimCore

/// `FingerprintCoverage` says which properties the fingerprint writes; this holds the claim
/// to the fingerprint itself. Each owner's state is changed through the owner's own methods,
/// one property at a time where the owner lets it be changed alone, and the state must then
/// fingerprint differently: a property said to be written but dropped by the walk fails here.
@Suite("Changing any owner's state changes the fingerprint")
struct FingerprintPerturbationTests {
  /// The owners `Simulation` coordinates. Each property of theirs the coverage calls written
  /// needs a change below.
  static let owners = [
    "Simulation", "Runtime", "ProgramState", "QueueTable", "ObjectGraph", "PersistentStore",
    "RaceDetector", "ScopeTable", "NotificationCenterModel", "ChangeTracking",
  ]

  /// A change to a state, named `Owner.property` for what it changes. A change an owner
  /// only makes together with others (an insert registers the object and numbers its
  /// temporary ID) is listed under each property it changes.
  typealias Change = @Sendable (inout Simulation) -> Void

  static let insert: Change = { _ = $0.graph.insert("Note", into: 0, values: NamedValues()) }
  static let racingAccesses: Change = { s in
    let other = s.raceDetector.addThread()
    _ = s.raceDetector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    _ = s.raceDetector.access(0, by: other, isWrite: true, step: 2, stepIndex: 0)
  }
  static let post: Change = { s in
    _ = s.center.post(PostedNotification(name: .didSave, context: 0), to: [])
  }

  static let changes: [String: Change] = [
    "Simulation.trace": { $0.trace.stop = .crashed },
    "Simulation.store": { _ = $0.store.takePrimaryKey("Note") },
    "Simulation.graph": insert,
    "Simulation.runtime": { $0.runtime.taskGroups.append(TaskGroupState(outstanding: 1)) },
    "Simulation.program": { $0.program.injectedCalls[0, default: 0] += 1 },
    "Simulation.raceDetector": { _ = $0.raceDetector.addThread() },
    "Simulation.center": post,
    "Simulation.changes": { $0.changes.unprocessed[0] = Simulation.PendingChanges() },

    "Runtime.queues": { _ = $0.runtime.queues.add(named: "perturbed", isSerial: true) },
    "Runtime.threads": { $0.runtime.threads[0].held.append(QueueTable.global) },
    "Runtime.taskGroups": { $0.runtime.taskGroups.append(TaskGroupState(outstanding: 2)) },
    "Runtime.events": { s in
      s.runtime.events.append(Block(steps: [], scope: Scope(index: 0), origin: nil))
    },

    "ProgramState.sharedVars": { $0.program.sharedVars["perturbed"] = .integer(1) },
    "ProgramState.scopes": { s in
      let scope = s.runtime.threads[0].frames[0].scope
      s.program.scopes[scope, "perturbed"] = .integer(1)
    },
    "ProgramState.injectedCalls": { $0.program.injectedCalls[0, default: 0] += 1 },

    "QueueTable.queues": { s in
      s.runtime.queues.enqueue(
        Block(steps: [], scope: Scope(index: 0), origin: nil), on: QueueTable.main)
    },

    "ObjectGraph.contexts": { s in
      _ = s.graph.add(
        ManagedObjectContext(
          name: "perturbed", description: .viewContext, queue: QueueTable.main, parent: nil))
    },
    "ObjectGraph.objects": insert,
    "ObjectGraph.registrations": insert,
    "ObjectGraph.nextTemporaryID": insert,

    "PersistentStore.rows": { s in
      s.store.insert(ObjectID(entity: "Note", kind: .permanent(99)), values: NamedValues())
    },
    "PersistentStore.nextPrimaryKey": { _ = $0.store.takePrimaryKey("Note") },
    "PersistentStore.history": {
      $0.store.history.append(HistoryTransaction(token: 99, author: nil, contextName: nil))
    },

    "RaceDetector.clocks": { _ = $0.raceDetector.addThread() },
    "RaceDetector.storeClock": { $0.raceDetector.lockStore(by: 0) },
    "RaceDetector.notificationCenterClock": { $0.raceDetector.lockNotificationCenter(by: 0) },
    "RaceDetector.histories": {
      _ = $0.raceDetector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
    },
    "RaceDetector.reported": racingAccesses,

    "ScopeTable.bindings": { s in
      let scope = s.runtime.threads[0].frames[0].scope
      s.program.scopes[scope, "perturbed"] = .string("x")
    },

    "NotificationCenterModel.observers": { s in
      _ = s.center.add(
        Observer(
          name: .didSave, object: 0, queue: nil, bind: nil, body: [], scope: Scope(index: 0),
          step: 0))
    },
    "NotificationCenterModel.posted": post,
    "NotificationCenterModel.undelivered": { s in
      _ = s.center.add(
        Observer(
          name: .didSave, object: nil, queue: nil, bind: nil, body: [], scope: Scope(index: 0),
          step: 0))
      _ = s.center.post(PostedNotification(name: .didSave, context: 0), to: [0])
    },

    "ChangeTracking.unprocessed": { $0.changes.unprocessed[0] = Simulation.PendingChanges() },
    "ChangeTracking.controllers": { s in
      s.changes.controllers.append(
        Simulation.FetchedResultsController(
          name: "perturbed", context: 0, request: FetchRequest(entity: "Note"), predicate: nil))
    },
  ]

  /// What a change needs done first, in both states it compares. A clock goes into the
  /// fingerprint ranked among the times of the accesses it may be compared with, so a lock's
  /// clock matters only once the thread has made an access the lock's clock now covers.
  static let before: [String: Change] = [
    "RaceDetector.storeClock": accessByMain,
    "RaceDetector.notificationCenterClock": accessByMain,
    // A count changed, not only a key added: the count itself must go in.
    "ProgramState.injectedCalls": { $0.program.injectedCalls[0] = 1 },
  ]
  static let accessByMain: Change = { s in
    _ = s.raceDetector.access(0, by: 0, isWrite: true, step: 1, stepIndex: 0)
  }

  /// A state at its launch, with a shared var, a context and an entity to change.
  static func launched() throws -> Simulation {
    let data = try Data(
      contentsOf: DraftTests.root.appendingPathComponent("scenarios/badge-count.json"))
    let scenario = try ScenarioDecoder.decode(Array(data), file: "badge-count")
    return Simulation(scenario: scenario, options: SimulationOptions(concurrencyDebug: true))
  }

  @Test("Every property the coverage calls written, of every owner, has a change here")
  func everyWrittenPropertyIsChanged() {
    for owner in Self.owners {
      let fields = FingerprintCoverage.owners[owner] ?? [:]
      #expect(!fields.isEmpty, "\(owner) is not in FingerprintCoverage")
      for (field, coverage) in fields where coverage == .written {
        #expect(Self.changes["\(owner).\(field)"] != nil, "no change for \(owner).\(field)")
      }
    }
  }

  @Test("Each change gives the state another fingerprint", arguments: changes.keys.sorted())
  func changeIsSeen(_ name: String) throws {
    var state = try Self.launched()
    Self.before[name]?(&state)
    var changed = state
    Self.changes[name]!(&changed)
    #expect(changed.fingerprint() != state.fingerprint())
  }

  @Test("The same state, copied, fingerprints alike: the walk reads nothing but the state")
  func copiesAgree() throws {
    let state = try Self.launched()
    let copy = state
    #expect(copy.fingerprint() == state.fingerprint())
  }
}
