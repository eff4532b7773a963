/// What the app's own Swift holds: its shared variables, every scope's bindings, and how
/// many times it has reached each injected failure's step.
struct ProgramState: Sendable {
  /// The scenario's `vars`, which any thread may read and write: the race detector
  /// watches them.
  var sharedVars = NamedValues()
  /// Every scope's bindings, by ``Scope/index``: blocks and frames name their scope.
  var scopes = ScopeTable()
  /// By index into the scenario's `inject`: how many times its step has run, so the
  /// failure comes at the call it names.
  var injectedCalls: [Int: Int] = [:]
}
