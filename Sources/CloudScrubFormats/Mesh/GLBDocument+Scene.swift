import CloudScrubCore

extension GLBDocument {
  /// The most nodes a scene walk visits: a file whose children lists repeat or loop
  /// could otherwise ask for an endless walk.
  static let maximumNodeVisits = 20_000

  /// Each mesh the default scene (`scene`, else the first) places, with its world
  /// transform: the nodes walked from the scene's roots, each node's `matrix` (or
  /// translation · rotation · scale) after its parent's. Nil when the file has no
  /// scene or no nodes.
  func placedMeshes() -> [(mesh: Int, transform: Transform3D)]? {
    let nodes = list("nodes")
    let scenes = list("scenes")
    let sceneIndex = json["scene"] as? Int ?? 0
    guard !nodes.isEmpty, scenes.indices.contains(sceneIndex) else { return nil }
    var placed: [(mesh: Int, transform: Transform3D)] = []
    var visits = 0
    func visit(_ index: Int, parent: Transform3D, depth: Int) {
      visits += 1
      guard depth < 64, visits <= Self.maximumNodeVisits, nodes.indices.contains(index) else {
        return
      }
      let node = nodes[index]
      let world = parent * Self.localTransform(node)
      if let mesh = node["mesh"] as? Int { placed.append((mesh, world)) }
      for child in node["children"] as? [Int] ?? [] {
        visit(child, parent: world, depth: depth + 1)
      }
    }
    for root in scenes[sceneIndex]["nodes"] as? [Int] ?? [] {
      visit(root, parent: .identity, depth: 0)
    }
    return placed
  }

  /// A node's transform from its parent: `matrix` (16 numbers, column by column), or
  /// `translation`, `rotation` (a quaternion x y z w) and `scale`, identity where absent.
  static func localTransform(_ node: [String: Any]) -> Transform3D {
    func numbers(_ key: String, _ count: Int) -> [Double]? {
      guard let values = node[key] as? [Double], values.count == count else { return nil }
      return values
    }
    if let m = numbers("matrix", 16) {
      return Transform3D(
        columns: (
          SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]),
          SIMD4(m[8], m[9], m[10], m[11]), SIMD4(m[12], m[13], m[14], m[15])
        ))
    }
    let t = numbers("translation", 3) ?? [0, 0, 0]
    let r = numbers("rotation", 4) ?? [0, 0, 0, 1]
    let s = numbers("scale", 3) ?? [1, 1, 1]
    return Transform3D(
      quaternion: SIMD4(r[0], r[1], r[2], r[3]), translation: SIMD3(t[0], t[1], t[2]))
      * .scale(SIMD3(s[0], s[1], s[2]))
  }
}
