/// `NSManagedObjectID`: the address of a row, safe to read and pass on any queue.
///
/// An inserted object has a temporary ID until its context saves to the store; the store
/// then gives the row a primary key and the object a permanent ID. Reports name a stored
/// row by the handle the scenario gave it (`note-1`), otherwise by entity and key.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
  /// Whether the ID is the store's (permanent) or the coordinator's until the first save (temporary).
  public enum Kind: Sendable, Hashable {
    /// A temporary ID, numbered in insertion order across the run.
    case temporary(Int)
    /// A permanent ID: the row's primary key in the store (`Z_PK`).
    case permanent(Int)
  }

  /// The entity the object is an instance of.
  public var entity: String
  /// Permanent or temporary, with the number or handle that tells it apart.
  public var kind: Kind
  /// The scenario's name for the row; display only, never part of equality.
  public var handle: String? {
    get { storedHandle.text }
    set { storedHandle = StoredHandle(newValue) }
  }
  /// The handle in an enum of this module's own: a run copies IDs all the time, and this
  /// toolchain copies an `Optional<String>` through the runtime's generic witnesses, about
  /// ten times what copying this costs.
  private var storedHandle: StoredHandle

  private enum StoredHandle: Sendable {
    case none
    case named(String)

    init(_ text: String?) {
      self = text.map { .named($0) } ?? .none
    }

    var text: String? {
      if case .named(let text) = self { text } else { nil }
    }
  }

  /// An ID of `entity`; `handle` names a stored row in reports (`note-1`).
  public init(entity: String, kind: Kind, handle: String? = nil) {
    self.entity = entity
    self.kind = kind
    storedHandle = StoredHandle(handle)
  }

  /// Whether no save has given the object its store ID yet: another context cannot look it up.
  public var isTemporary: Bool {
    if case .temporary = kind { true } else { false }
  }

  /// `note-1` for a row with a handle, `Photo/p5` for other rows, `Photo/t2` before a save.
  public var description: String {
    if let handle { return handle }
    switch kind {
    case .temporary(let n): return "\(entity)/t\(n)"
    case .permanent(let pk): return "\(entity)/p\(pk)"
    }
  }

  /// The same object: the same entity and the same temporary or permanent key; the handle
  /// only names it in reports.
  public static func == (a: ObjectID, b: ObjectID) -> Bool {
    a.entity == b.entity && a.kind == b.kind
  }

  /// Hashes the key alone: IDs of one entity differ there, and hashing the entity's name
  /// on every lookup is the simulation's hottest cost. Equality still checks the entity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
  }
}
