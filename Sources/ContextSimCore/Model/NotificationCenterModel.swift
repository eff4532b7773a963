/// `NotificationCenter.default` as a run sees it: the observers the app added, every
/// notification posted, and those the current step posted, which are delivered once the
/// step is done (see `Simulation+Notifications`, which posts and runs the bodies).
///
/// It keeps its own rules: an observer is never taken out, only made inactive, so its
/// index stays its token; a post reaches the active observers of its name and object, in
/// the order they were added; what a step posted is delivered once, then forgotten.
struct NotificationCenterModel: Sendable {
  private(set) var observers: [Observer] = []
  private(set) var posted: [PostedNotification] = []
  /// What the current step posted, each with the observers it reaches.
  private(set) var undelivered: [(notification: Int, observers: [Int])] = []

  /// Adds an observer; its index is the token `removeObserver` is given.
  mutating func add(_ observer: Observer) -> Int {
    observers.append(observer)
    return observers.count - 1
  }

  /// `removeObserver(token)`: the observer hears nothing more, not even what was posted
  /// before and is still being delivered.
  mutating func remove(_ index: Int) {
    observers[index].isActive = false
  }

  /// The active observers a notification reaches, in the order they were added: those of
  /// its name, for its context or for every context. A remote change is the coordinator's,
  /// so it reaches every observer of it.
  func receivers(of notification: PostedNotification) -> [Int] {
    observers.indices.filter { o in
      observers[o].isActive && observers[o].name == notification.name
        && (notification.name == .remoteChange
          || (observers[o].object ?? notification.context) == notification.context)
    }
  }

  /// Keeps a notification; with `receivers`, to be delivered once the step is done.
  /// Returns its index, which observers' bodies name it by.
  mutating func post(_ notification: PostedNotification, to receivers: [Int] = []) -> Int {
    posted.append(notification)
    if !receivers.isEmpty { undelivered.append((posted.count - 1, receivers)) }
    return posted.count - 1
  }

  /// What the step posted, to be delivered now; forgotten here.
  mutating func takeUndelivered() -> [(notification: Int, observers: [Int])] {
    defer { undelivered = [] }
    return undelivered
  }
}

/// An observer the app added, with what its closure captured.
struct Observer {
  var name: NotificationName
  /// The context it listens to; nil for every context.
  var object: Int?
  /// The queue its body runs on; nil for the posting thread.
  var queue: Int?
  /// The name the body calls the notification by; nil for a controller's delegate.
  var bind: String?
  var body: [Step]
  var scope: Scope
  /// The step that added it (`observe`, or a controller's), which runs its body when it
  /// is delivered.
  var step: Int
  /// The fetched results controller whose delegate this is, which takes the changes in
  /// before the body runs.
  var controller: Int? = nil
  var isActive = true
}

/// A notification as its observers see it: who posted, and the objects it lists.
struct PostedNotification {
  var name: NotificationName
  var context: Int
  var inserted: [Value] = []
  var updated: [Value] = []
  var deleted: [Value] = []
  /// A remote change's `NSPersistentHistoryTokenKey`: nil without history tracking.
  var historyToken: Int? = nil
}
