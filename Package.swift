// swift-tools-version:6.0
import PackageDescription

// Dependency rule: CloudScrubCore imports Foundation only (no C library, no GL, no
// GLFW). CloudScrubFormats wraps the C decoders above it; rendering and the window come
// later, also above it. See README.md.
let package = Package(
  name: "CloudScrub",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "cloudscrub", targets: ["cloudscrub"]),
    .library(name: "CloudScrubCore", targets: ["CloudScrubCore"]),
  ],
  targets: [
    .target(name: "CloudScrubCore"),
    .systemLibrary(
      name: "CTurboJPEG", path: "Sources/CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "COpenEXR", path: "Sources/COpenEXR", providers: [.apt(["libopenexr-dev"])]),
    .target(name: "CloudScrubFormats", dependencies: ["CloudScrubCore", "CTurboJPEG", "COpenEXR"]),
    .target(name: "CloudScrubCLI", dependencies: ["CloudScrubCore", "CloudScrubFormats"]),
    .executableTarget(name: "cloudscrub", dependencies: ["CloudScrubCLI"]),
    .target(name: "TestSupport", dependencies: ["CloudScrubCore"], path: "Tests/TestSupport"),
    .testTarget(name: "CloudScrubCoreTests", dependencies: ["CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubFormatsTests",
      dependencies: ["CloudScrubFormats", "CloudScrubCore", "TestSupport"]),
    .testTarget(
      name: "CloudScrubCLITests",
      dependencies: ["CloudScrubCLI", "CloudScrubCore", "TestSupport", "cloudscrub"],
      exclude: ["Golden"]),
  ]
)
