/// A stream writer for formats that write a whole cloud at once (E57): the pieces are
/// held in memory and the cloud is written by `finish`. Memory grows with the points,
/// unlike the spooling writers.
public final class HeldCloudStreamWriter: CloudStreamWriter {
  /// Writes the whole cloud with its provenance.
  public typealias Write = (PointCloud, ExportProvenance, ProgressHandler?) throws -> Void

  private let template: PointCloud
  private var pieces: [PointCloud] = []
  private let writeCloud: Write
  public private(set) var count = 0

  /// - Parameter fields: a cloud (usually empty) with the fields every piece has.
  public init(fields: PointCloud, write: @escaping Write) {
    template = fields.subset(indices: [])
    writeCloud = write
  }

  public func append(_ piece: PointCloud) throws {
    guard piece.count > 0 else { return }
    guard CloudFieldSelection.sameFields(piece, template), piece.isConsistent else {
      throw CloudWriteError.inconsistentCloud
    }
    pieces.append(piece)
    count += piece.count
  }

  public func finish(provenance: ExportProvenance, progress: ProgressHandler?) throws {
    try writeCloud(Self.joined(pieces, template: template), provenance, progress)
    pieces = []
  }

  public func abandon() { pieces = [] }

  /// The pieces as one cloud, in order.
  static func joined(_ pieces: [PointCloud], template: PointCloud) -> PointCloud {
    var cloud = template
    cloud.positions = pieces.flatMap(\.positions)
    if template.colors != nil { cloud.colors = pieces.flatMap { $0.colors ?? [] } }
    if template.normals != nil { cloud.normals = pieces.flatMap { $0.normals ?? [] } }
    for (slot, attribute) in template.attributes.enumerated() {
      let columns = pieces.map { $0.attributes[slot].values }
      cloud.attributes[slot].values = AttributeValues.joined(columns, like: attribute.values)
    }
    return cloud
  }
}

extension AttributeValues {
  /// `columns` (each of `template`'s type) one after another.
  static func joined(_ columns: [AttributeValues], like template: AttributeValues)
    -> AttributeValues
  {
    func join<T>(_ values: (AttributeValues) -> [T]?) -> [T] {
      columns.flatMap { values($0) ?? [] }
    }
    switch template {
    case .int8: return .int8(join { if case .int8(let v) = $0 { v } else { nil } })
    case .uint8: return .uint8(join { if case .uint8(let v) = $0 { v } else { nil } })
    case .int16: return .int16(join { if case .int16(let v) = $0 { v } else { nil } })
    case .uint16: return .uint16(join { if case .uint16(let v) = $0 { v } else { nil } })
    case .int32: return .int32(join { if case .int32(let v) = $0 { v } else { nil } })
    case .uint32: return .uint32(join { if case .uint32(let v) = $0 { v } else { nil } })
    case .float32: return .float32(join { if case .float32(let v) = $0 { v } else { nil } })
    case .float64: return .float64(join { if case .float64(let v) = $0 { v } else { nil } })
    }
  }
}
