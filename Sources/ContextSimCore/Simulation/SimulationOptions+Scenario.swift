extension SimulationOptions {
  /// The options a scenario asks for: its own `concurrencyDebug`, and the default limits.
  public init(_ scenario: Scenario) {
    self.init(concurrencyDebug: scenario.concurrencyDebug)
  }
}
