import CloudScrubCore

extension PointUniforms {
  /// The same draw with `worldFromStored` folded into the other uniforms, for a
  /// renderer that projects stored positions straight (the CPU rasterizer): the view
  /// and view-projection take the model transform on their right, and the height ramp
  /// measures along the up axis turned back into stored coordinates, its range shifted
  /// by the transform's height. Uniforms without a model transform come back as they
  /// are.
  public func composingWorldFromStored() -> PointUniforms {
    guard let model = worldFromStored else { return self }
    var result = self
    result.worldFromStored = nil
    result.viewProjection = viewProjection * model
    result.view = view * model
    // height = up · (R p + t) = (Rᵀ up) · p + up · t
    let up = upAxis
    let turned = SIMD3<Float>(
      (SIMD3(model.column(0).x, model.column(0).y, model.column(0).z) * up).sum(),
      (SIMD3(model.column(1).x, model.column(1).y, model.column(1).z) * up).sum(),
      (SIMD3(model.column(2).x, model.column(2).y, model.column(2).z) * up).sum())
    let lift = (SIMD3(model.column(3).x, model.column(3).y, model.column(3).z) * up).sum()
    result.upAxis = turned
    result.heightRangeMeters =
      (heightRangeMeters.lowerBound - lift)...(heightRangeMeters.upperBound - lift)
    return result
  }
}
