// swift-tools-version:6.0
import PackageDescription

// Dependency rule: CloudScrubCore imports Foundation only (no C library, no GL, no
// GLFW). Libraries for decoding, rendering and the window sit above it; see README.md.
let package = Package(
  name: "CloudScrub",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "cloudscrub", targets: ["cloudscrub"]),
    .library(name: "CloudScrubCore", targets: ["CloudScrubCore"]),
  ],
  targets: [
    .target(name: "CloudScrubCore"),
    .target(name: "CloudScrubCLI", dependencies: ["CloudScrubCore"]),
    .executableTarget(name: "cloudscrub", dependencies: ["CloudScrubCLI"]),
    .target(name: "TestSupport", dependencies: ["CloudScrubCore"], path: "Tests/TestSupport"),
    .testTarget(name: "CloudScrubCoreTests", dependencies: ["CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubCLITests",
      dependencies: ["CloudScrubCLI", "CloudScrubCore", "TestSupport", "cloudscrub"],
      exclude: ["Golden"]),
  ]
)
