import Testing

/// The suites that run the real `parlor` executable, one after another: each starts server
/// processes of its own, and on a 2-core machine several at once beside every other suite have
/// stalled the whole test process for seconds.
@Suite("The parlor executable", .serialized)
enum RealBinaryTests {}
