import ContextSimCore

/// `try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token))`: the
/// store's history transactions after a token, bound as a list.
public struct FetchHistory: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  ///
  /// - Parameters:
  ///   - token: `"$token"`, read from `tx.token` or `notification.historyToken`; nil fetches
  ///     the whole history.
  ///   - name: binds the transactions (`NSPersistentHistoryResult.result`).
  public init(
    _ context: String, after token: String? = nil, as name: String? = nil,
    try mode: TryMode = .do, line: Int = #line, column: Int = #column
  ) {
    json = StepJSON(
      "fetchHistory", .string(context),
      ["after": token.map(Literal.string), "as": name.map(Literal.string), "try": mode.literal],
      line: line, column: column)
  }
}
