// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ctxsim",
  // Linux needs no entry; on Apple platforms the clocks the tool measures with need these.
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "ContextSim", targets: ["ContextSim"]),
    .executable(name: "ctxsim", targets: ["ctxsim"]),
    .executable(name: "ctxsim-bench", targets: ["ctxsim-bench"]),
    .executable(name: "ctxsim-fuzz", targets: ["ctxsim-fuzz"]),
  ],
  targets: [
    // The layers, each a target so an import the design does not allow fails to build:
    // the core runs scenarios; reports render what it finds; the DSL writes scenarios in
    // Swift; the drafter reads an app's Swift; teaching is lessons, the game and grading.
    // `ContextSim` is all of them under one import.
    .target(name: "ContextSimCore"),
    .target(name: "ContextSimReports", dependencies: ["ContextSimCore"]),
    .target(name: "ContextSimDSL", dependencies: ["ContextSimCore"]),
    .target(name: "ContextSimDraft", dependencies: ["ContextSimCore", "ContextSimReports"]),
    .target(name: "ContextSimTeaching", dependencies: ["ContextSimCore", "ContextSimReports"]),
    .target(
      name: "ContextSim",
      dependencies: [
        "ContextSimCore", "ContextSimReports", "ContextSimDSL", "ContextSimDraft",
        "ContextSimTeaching",
      ]),
    .executableTarget(name: "ctxsim", dependencies: ["ContextSim"]),
    .executableTarget(name: "ctxsim-bench", dependencies: ["ContextSim"]),
    // The fuzzer's driver is looked up at run time, so its symbol must be exported.
    .executableTarget(
      name: "ctxsim-fuzz", dependencies: ["ContextSim"],
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
    ),
    .testTarget(
      name: "ContextSimTests", dependencies: ["ContextSim"],
      exclude: ["FuzzRegressions", "Grading/Attempts", "Fixtures"]),
    .testTarget(
      name: "CtxsimTests",
      dependencies: ["ctxsim", "ContextSim"],
      exclude: ["Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
