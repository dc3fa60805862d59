import Dispatch
import Foundation

enum Parallel {
    /// `transform` applied to every element, on `workers` threads, each with its own state
    /// from `makeWorker` (such as a parser that must not be shared); results in the elements'
    /// order. Each worker takes every n-th element and writes only its own slots of the result.
    static func map<Element, Worker, Result, Failure: Error>(
        _ elements: [Element], workers: Int, makeWorker: (Int) throws(Failure) -> Worker,
        _ transform: (Worker, Element) -> Result
    ) throws(Failure) -> [Result] {
        guard !elements.isEmpty else { return [] }
        let states = Shared(try (0..<workers).map { index throws(Failure) in try makeWorker(index) })
        let results = UnsafeMutableBufferPointer<Result>.allocate(capacity: elements.count)
        defer { results.deallocate() }
        let slots = Shared(results)
        let input = Shared(elements)
        withoutActuallyEscaping(transform) { transform in
            let work = Shared(transform)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                let state = states.value[worker]
                for index in stride(from: worker, to: input.value.count, by: workers) {
                    (slots.value.baseAddress! + index).initialize(to: work.value(state, input.value[index]))
                }
            }
        }
        let array = Array(results)
        _ = results.deinitialize()
        return array
    }
}

/// Hands the parallel workers what they share: each worker uses only its own state and writes
/// only its own slots of the result buffer, so no two threads touch the same memory.
private struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
