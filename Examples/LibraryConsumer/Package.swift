// swift-tools-version:6.0
// A package that depends on ctxsim and imports only ContextSim, as another team's would.
// CI builds it, runs it and runs its tests (.ci/run), so the README's example keeps working.
import PackageDescription

let package = Package(
  name: "LibraryConsumer",
  dependencies: [.package(name: "ctxsim", path: "../..")],
  targets: [
    .executableTarget(
      name: "LibraryConsumer", dependencies: [.product(name: "ContextSim", package: "ctxsim")]),
    .testTarget(
      name: "LibraryConsumerTests",
      dependencies: [.product(name: "ContextSim", package: "ctxsim")]),
  ],
  swiftLanguageModes: [.v6]
)
