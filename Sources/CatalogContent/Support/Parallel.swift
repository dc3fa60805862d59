import Dispatch
import Foundation

/// Work spread over threads, for the compiler and `digno site`. Written by hand: Dispatch runs
/// the threads, and no package here maps over them with results in order.
package enum Parallel {
    /// `transform` applied to every element, on `workers` threads, each with its own state
    /// from `makeWorker` (such as a parser that must not be shared); results in the elements'
    /// order. Each worker takes every n-th element and writes only its own slots of the result.
    package static func map<Element, Worker, Result, Failure: Error>(
        _ elements: [Element], workers: Int, makeWorker: (Int) throws(Failure) -> Worker,
        _ transform: (Worker, Element) -> Result
    ) throws(Failure) -> [Result] {
        guard !elements.isEmpty else { return [] }
        let states = Shared(try (0..<workers).map { index throws(Failure) in try makeWorker(index) })
        let input = Shared(elements)
        // The results are made in the array's own storage: copying 100,000 of them out of a
        // separate buffer afterwards was one core's work while the other waited.
        return withoutActuallyEscaping(transform) { transform in
            let work = Shared(transform)
            return Array(unsafeUninitializedCapacity: elements.count) { buffer, initialized in
                let slots = Shared(buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let state = states.value[worker]
                    for index in stride(from: worker, to: input.value.count, by: workers) {
                        (slots.value + index).initialize(to: work.value(state, input.value[index]))
                    }
                }
                initialized = elements.count
            }
        }
    }
}

/// Hands the parallel workers what they share: each worker uses only its own state and writes
/// only its own slots of the result buffer, so no two threads touch the same memory.
private struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
