import ContextSim
import Foundation

let bytes = Array(FileManager.default.contents(atPath: CommandLine.arguments[1])!)
do {
  let scenario = try ScenarioDecoder.decode(bytes, file: CommandLine.arguments[1])
  var scheduler = RunToCompletionScheduler()
  let trace = simulate(scenario, options: .init(concurrencyDebug: scenario.concurrencyDebug), scheduler: &scheduler)
  print(TextRenderer(scenario: scenario, options: .init(allSteps: CommandLine.arguments.count > 2, verbose: CommandLine.arguments.count > 2)).render(trace), terminator: "")
} catch {
  print(error)
}
