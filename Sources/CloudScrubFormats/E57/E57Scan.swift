import CloudScrubCore

/// Who wrote an E57 file and from what, as the writer records it: `software` in the
/// root's `e57LibraryVersion`, `description` in each scan's `description`, and
/// `entries` (source, frames, filters, cleaning, …) in order in the root's
/// `cloudscrub:provenance` extension, a vector of name/value string pairs.
public struct E57Provenance: Equatable, Sendable {
  /// One name/value pair.
  public struct Entry: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  public var software: String
  public var description: String
  public var entries: [Entry]

  public init(software: String = "CloudScrub", description: String = "", entries: [Entry] = []) {
    self.software = software
    self.description = description
    self.entries = entries
  }
}

/// One scan for the writer: points in the scan's own coordinates and the scan's pose.
public struct E57Scan: Equatable, Sendable {
  public var name: String
  /// The scan's pose (rigid): where its points lie in the file's world frame.
  public var worldFromScan: Transform3D
  /// Positions (and normals) in scan coordinates, with optional colours and
  /// attributes, all written.
  public var cloud: PointCloud

  public init(name: String, worldFromScan: Transform3D = .identity, cloud: PointCloud) {
    self.name = name
    self.worldFromScan = worldFromScan
    self.cloud = cloud
  }

  /// One scan per capture frame: the points of `cloud` (in world coordinates) split by
  /// their "frame" attribute, each scan's points moved into its frame's camera
  /// coordinates with `worldFromFrame`'s inverse and posed with it, in frame order;
  /// normals are turned with the points, colours and attributes kept. Frames
  /// `worldFromFrame` has no pose for are posed at the identity (their points stay in
  /// world coordinates). Without a "frame" attribute, one scan of every point.
  ///
  /// - Parameter worldFromFrame: the rigid camera-to-world transform of a frame index.
  public static func perFrame(
    _ cloud: PointCloud, worldFromFrame: (Int) -> Transform3D?
  ) -> [E57Scan] {
    guard let attribute = cloud.attribute(named: "frame"), attribute.values.count == cloud.count
    else {
      return [E57Scan(name: "scan 0", cloud: cloud)]
    }
    var members: [Int: [Int]] = [:]
    for index in 0..<cloud.count {
      members[Int(attribute.values.double(at: index)), default: []].append(index)
    }
    return members.keys.sorted().map { frame in
      let indices = members[frame] ?? []
      let worldFromScan = worldFromFrame(frame) ?? .identity
      let scanFromWorld = worldFromScan.rigidInverse
      var scanCloud = cloud.subset(indices: indices)
      scanCloud.positions = scanCloud.positions.map { p in
        let local = scanFromWorld.apply(to: SIMD3(Double(p.x), Double(p.y), Double(p.z)))
        return Point3(Float(local.x), Float(local.y), Float(local.z))
      }
      scanCloud.normals = scanCloud.normals?.map { n in
        let local = scanFromWorld.rotate(SIMD3(Double(n.x), Double(n.y), Double(n.z)))
        return Point3(Float(local.x), Float(local.y), Float(local.z))
      }
      return E57Scan(name: "frame \(frame)", worldFromScan: worldFromScan, cloud: scanCloud)
    }
  }
}
