/// `NSManagedObjectID`: the address of a row, safe to read and pass on any queue.
///
/// An inserted object has a temporary ID until its context saves to the store; the store
/// then gives the row a primary key and the object a permanent ID. Reports name a stored
/// row by the handle the scenario gave it (`note-1`), otherwise by entity and key.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// A temporary ID, numbered in insertion order across the run.
    case temporary(Int)
    /// A permanent ID: the row's primary key in the store (`Z_PK`).
    case permanent(Int)
  }

  public var entity: String
  public var kind: Kind
  /// The scenario's name for the row; display only, never part of equality.
  public var handle: String?

  public init(entity: String, kind: Kind, handle: String? = nil) {
    self.entity = entity
    self.kind = kind
    self.handle = handle
  }

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

  public static func == (a: ObjectID, b: ObjectID) -> Bool {
    a.entity == b.entity && a.kind == b.kind
  }

  /// Hashes the key alone: IDs of one entity differ there, and hashing the entity's name
  /// on every lookup is the simulation's hottest cost. Equality still checks the entity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
  }
}
