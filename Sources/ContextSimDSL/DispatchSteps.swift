import ContextSimCore

// Queues, threads and Swift concurrency: the verbs that run or enqueue a block.

/// `DispatchQueue.X.async { … }` on `main`, `global` or a declared queue.
public struct Async: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ queue: String, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON("async", .string(queue), body: [("do", body())], line: line, column: column)
  }
}

/// A user's later event on the main thread (a tap once the screen has loaded): it runs
/// once every other thread and queue is idle. `queue` is always `"main"`.
public struct WhenIdle: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ queue: String = "main", line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON("whenIdle", .string(queue), body: [("do", body())], line: line, column: column)
  }
}

/// `DispatchQueue.X.sync { … }`: the caller waits for the block.
public struct Sync: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ queue: String, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON("sync", .string(queue), body: [("do", body())], line: line, column: column)
  }
}

/// `context.perform { … }`, or inside a task `try await context.perform(schedule:) { … }`.
public struct Perform: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameter schedule: with `await`, how the block is scheduled; nil leaves it to the
  ///   format's default.
  public init(
    _ context: String, await awaits: Bool = false, schedule: ScheduledTaskType? = nil,
    line: Int = #line, column: Int = #column, @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "perform", .string(context),
      ["await": awaits ? true : nil, "schedule": schedule.map { .string($0.rawValue) }],
      body: [("do", body())], line: line, column: column)
  }
}

/// `context.performAndWait { … }`, re-entrant on the context's own queue.
public struct PerformAndWait: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ context: String, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "performAndWait", .string(context), body: [("do", body())], line: line, column: column)
  }
}

/// `Task { @MainActor in … }` or `Task.detached { … }`.
public struct StartTask: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ executor: TaskExecutor, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "task", .string(executor.rawValue), body: [("do", body())], line: line, column: column)
  }
}

/// `withTaskGroup`: a child task per element, then `then` for each child as it finishes.
public struct WithTaskGroup: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// - Parameter elements: a list, or `"$var"` naming one.
  public init(
    over elements: Literal, as name: String, line: Int = #line, column: Int = #column,
    @StepsBuilder child: () -> [any ScenarioStep], @StepsBuilder then: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "taskGroup", elements, ["as": .string(name)], body: [("child", child()), ("then", then())],
      line: line, column: column)
  }
}

/// A `for` loop on the current thread, over a list or `"$var"`.
public struct ForEach: ScenarioStep {
  /// The step as the decoder reads it, placed where the Swift wrote it.
  public let json: StepJSON
  /// `line` and `column` default to the call's place, where errors about the step point.
  public init(
    _ elements: Literal, as name: String, line: Int = #line, column: Int = #column,
    @StepsBuilder _ body: () -> [any ScenarioStep]
  ) {
    json = StepJSON(
      "forEach", elements, ["as": .string(name)], body: [("do", body())], line: line,
      column: column)
  }
}
