// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ctxsim",
  products: [
    .library(name: "ContextSim", targets: ["ContextSim"]),
    .executable(name: "ctxsim", targets: ["ctxsim"]),
    .executable(name: "ctxsim-bench", targets: ["ctxsim-bench"]),
  ],
  targets: [
    .target(name: "ContextSim"),
    .executableTarget(name: "ctxsim", dependencies: ["ContextSim"]),
    .executableTarget(name: "ctxsim-bench", dependencies: ["ContextSim"]),
    .testTarget(name: "ContextSimTests", dependencies: ["ContextSim"]),
    .testTarget(
      name: "CtxsimTests",
      dependencies: ["ctxsim", "ContextSim"],
      exclude: ["Snapshots"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
