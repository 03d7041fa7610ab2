/// Called with the fraction of a long job done so far, from 0 to 1.
public typealias ProgressHandler = (Double) -> Void
