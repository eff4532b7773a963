/// A broken rule found during a run: what happened, where, and how the app would end.
///
/// Its description is one line for test failures and logs:
/// `wrongQueueContext at main[1] (scheduler step 3, thread main): <the trap's headline>`.
public struct Violation: Sendable, CustomStringConvertible {
  /// Where the violation happened: scheduler step, thread, queue and scenario step.
  public var site: Site {
    get { facts.site }
    set { facts = Facts(site: newValue, detail: detail, backtrace: backtrace) }
  }
  /// What happened, by kind, with the facts reports need.
  public var detail: Detail {
    get { facts.detail }
    set { facts = Facts(site: site, detail: newValue, backtrace: backtrace) }
  }
  /// The scenario steps that led here, innermost first, across the blocks that enqueued them.
  public var backtrace: [BacktraceEntry] {
    get { facts.backtrace }
    set { facts = Facts(site: site, detail: detail, backtrace: newValue) }
  }

  /// The facts in one shared box. A search copies a run's violations with the run at every
  /// point it goes back to, and a box is one reference to count where its fields are a
  /// dozen (callgrind: copying and freeing violations was a tenth of a bounded DPOR search).
  private var facts: Facts

  private final class Facts: Sendable {
    let site: Site
    let detail: Detail
    let backtrace: [BacktraceEntry]

    init(site: Site, detail: Detail, backtrace: [BacktraceEntry]) {
      self.site = site
      self.detail = detail
      self.backtrace = backtrace
    }
  }

  init(site: Site, detail: Detail, backtrace: [BacktraceEntry]) {
    facts = Facts(site: site, detail: detail, backtrace: backtrace)
  }

  /// The rule broken, by the scenario format's name; what `expect` lists.
  public var kind: ViolationKind { detail.kind }
  /// Labels of the scenario step and the steps around it; `expect`'s `at` matches these.
  public var labels: [String] { site.labels }

  /// `kind at path (scheduler step N, thread T): headline`.
  public var description: String {
    "\(kind.rawValue) at \(site.path) (scheduler step \(site.step), thread \(site.thread)): "
      + headline
  }

  /// The facts of each kind of violation, for renderers to word.
  public enum Detail: Sendable {
    /// A ConcurrencyDebug trap: a context, or an object through its context, touched off-queue.
    case wrongQueue(WrongQueue)
    /// No thread can move; each entry is a blocked thread and what it waits for.
    case deadlock([BlockedThread])
    /// An `expect` step saw something else.
    case expectationFailed(expected: String, actual: String)
    /// An Objective-C exception nobody catches: the app aborts. `kind` says which rule.
    case uncaughtException(ViolationKind, Exception)
    /// A Core Data error that a `do`/`catch` caught.
    case caughtError(CoreDataError, call: String)
    /// A Core Data error that `try?` threw away.
    case discardedError(CoreDataError, call: String)
    /// A Core Data error that `try!` turned into a crash.
    case uncaughtError(CoreDataError, call: String)
    /// Two accesses to a shared var, at least one a write, that nothing orders.
    case dataRace(variable: String, access: RaceAccess, previous: RaceAccess)
    /// Without the flag: two threads inside one context at once, one of them off its queue.
    case corruption(context: String, otherThread: String, method: String, offQueue: String)
    /// A fault fired on a row that no longer exists; the app silently reads nil.
    case faultOnDeletedObject(object: ObjectID)

    /// The kind of violation these facts make.
    public var kind: ViolationKind {
      switch self {
      case .wrongQueue(let w): w.subject.isContext ? .wrongQueueContext : .wrongQueueObject
      case .deadlock: .deadlock
      case .expectationFailed: .expectationFailed
      case .uncaughtException(let kind, _): kind
      case .caughtError(let error, _): error.kind
      case .discardedError: .discardedError
      case .uncaughtError: .uncaughtError
      case .faultOnDeletedObject: .faultOnDeletedObject
      case .dataRace: .dataRace
      case .corruption: .corruption
      }
    }
  }

  /// The facts of a ConcurrencyDebug trap.
  public struct WrongQueue: Sendable {
    /// What was touched off its queue: the context itself, or one of its objects.
    public enum Subject: Sendable {
      /// The context, by name.
      case context(String)
      /// A managed object, through the context that owns it.
      case object(ObjectID, context: String)

      /// Whether the context itself was touched, which makes a `wrongQueueContext`.
      public var isContext: Bool {
        if case .context = self { true } else { false }
      }

      /// The context whose queue the check asked about.
      public var context: String {
        switch self {
        case .context(let name), .object(_, let name): name
        }
      }
    }

    /// What was touched.
    public var subject: Subject
    /// The queue that owns the context.
    public var ownerQueue: String
    /// The queue the touching thread was running.
    public var touchingQueue: String
    /// The Core Data method that ran the check, as a crash log shows it.
    public var method: String
  }

  /// One side of a data race, as ThreadSanitizer names it.
  public struct RaceAccess: Sendable {
    /// Whether this side wrote the var.
    public var isWrite: Bool
    /// The thread that made the access.
    public var thread: String
    /// The scheduler step of the access, from 1.
    public var step: Int
    /// The scenario step's index in ``Scenario/allSteps``.
    public var stepIndex: Int
  }

  /// One thread that cannot move in a deadlock.
  public struct BlockedThread: Sendable {
    /// The blocked thread.
    public var thread: String
    /// The queue it waits for.
    public var waitsFor: String
    /// The thread that holds that queue, if one does.
    public var heldBy: String?
  }

  /// How the real app would end because of this violation, if it would.
  public var termination: Termination? {
    switch detail {
    case .wrongQueue: .concurrencyTrap
    case .uncaughtError: .swiftRuntimeTrap
    case .uncaughtException: .uncaughtException
    case .corruption: .badAccess
    case .deadlock(let blocked): blocked.contains { $0.thread == "main" } ? .watchdog : nil
    default: nil
    }
  }
}

/// Where in a run something happened.
public struct Site: Sendable {
  /// The scheduler step, counted from 1.
  public var step: Int
  /// The thread that took the step.
  public var thread: String
  /// The queue the thread was running: the innermost queue it held.
  public var queue: String
  /// The scenario step's index in ``Scenario/allSteps``.
  public var stepIndex: Int
  /// The scenario step's place in the file: `main[2].perform.do[0]`.
  public var path: String
  /// Labels of the scenario step and the steps that contain it, innermost first.
  public var labels: [String]
}

/// One line of a simulated backtrace.
public enum BacktraceEntry: Sendable, Equatable {
  /// A scenario step, by its index in ``Scenario/allSteps``.
  case step(Int)
  /// The block above was enqueued on `queue` by `thread`, from the steps below.
  case enqueued(queue: String, thread: String)
  /// The main thread's launch code.
  case launch
}

/// A Core Data `NSError`, as the simulated app would receive it.
public struct CoreDataError: Sendable, Equatable, CustomStringConvertible {
  /// The `NSCocoaErrorDomain` code: 133020 for a merge conflict, 1570 for a missing value.
  public var code: Int
  /// What the error's `localizedDescription` says.
  public var message: String
  /// What `userInfo` would list: each conflict, or each validation failure.
  public var details: [String] = []

  /// The violation kind the error stands for when it is caught and reported.
  public var kind: ViolationKind {
    switch code {
    case 133_000: .objectNotFound
    case 133_020: .mergeConflict
    case 133_021: .constraintConflict
    case 1550...1680: .validationFailed
    default: .uncaughtError
    }
  }

  /// `Error Domain=NSCocoaErrorDomain Code=133000 "…"`, as Swift prints an `NSError`.
  public var description: String {
    "Error Domain=NSCocoaErrorDomain Code=\(code) \"\(message)\""
  }
}

/// How a crashed app ends, with the exit status a shell sees.
public enum Termination: Sendable, Equatable {
  /// `+[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__]`: `brk`.
  case concurrencyTrap
  /// A Swift runtime failure such as `try!`: a trap instruction.
  case swiftRuntimeTrap
  /// An uncaught `NSException`: `abort()`.
  case uncaughtException
  /// The main thread stopped answering and the system watchdog killed the app.
  case watchdog
  /// A corrupted context crashed the app: `EXC_BAD_ACCESS`.
  case badAccess

  /// The status a shell sees: 128 plus the signal number.
  public var exitStatus: Int32 {
    switch self {
    case .concurrencyTrap, .swiftRuntimeTrap: 133  // SIGTRAP on Apple silicon
    case .uncaughtException: 134  // SIGABRT
    case .watchdog: 137  // SIGKILL
    case .badAccess: 139  // SIGSEGV
    }
  }

  /// The signal's name: `SIGTRAP`, `SIGABRT`, `SIGKILL` or `SIGSEGV`.
  public var signal: String {
    switch self {
    case .concurrencyTrap, .swiftRuntimeTrap: "SIGTRAP"
    case .uncaughtException: "SIGABRT"
    case .watchdog: "SIGKILL"
    case .badAccess: "SIGSEGV"
    }
  }
}
