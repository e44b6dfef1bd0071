/// Counts of words made only of ASCII letters, keyed by their lower-cased bytes,
/// for the fake model's keyword choice.
///
/// Open addressing keyed by the word's bytes: a word is hashed and compared
/// eight bytes at a time, lower-cased as it is read (`| 0x20`, exact for ASCII
/// letters), and no `String` is made until the winners are known. Each
/// distinct word's lower-cased bytes are copied once into an arena. The
/// storage is owned by the instance and freed when it goes.
final class ASCIIWordCounts {
    private struct Entry {
        var start: Int
        var length: Int
        var count: Int
        var hash: UInt64
    }

    /// Lower-cased key bytes, one after another, with eight spare bytes at the end for whole-word stores.
    private var keys: UnsafeMutablePointer<UInt8>
    private var keysCount = 0
    private var keysCapacity: Int
    private var entries: UnsafeMutablePointer<Entry>
    private var entryCount = 0
    private var entryCapacity: Int
    /// Indices into `entries`, -1 where empty; the count is a power of two.
    private var slots: UnsafeMutablePointer<Int>
    private var slotCount: Int

    private static let spare = 8
    private static let lowerBits: UInt64 = 0x2020_2020_2020_2020

    /// An empty table.
    init() {
        keysCapacity = 2048
        keys = .allocate(capacity: keysCapacity + Self.spare)
        entryCapacity = 256
        entries = .allocate(capacity: entryCapacity)
        slotCount = 512
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: -1, count: slotCount)
    }

    deinit {
        keys.deallocate()
        entries.deallocate()
        slots.deallocate()
    }

    /// The number of distinct words counted.
    var count: Int { entryCount }

    /// Counts the word of `length` (five or more) bytes at `q`, every one an ASCII letter.
    func addLetters(_ q: UnsafePointer<UInt8>, _ length: Int) {
        let hash = Self.hash(q, length)
        let mask = slotCount &- 1
        var slot = Int(truncatingIfNeeded: hash >> 32) & mask
        while true {
            let index = slots[slot]
            if index < 0 { break }
            let entry = entries[index]
            if entry.hash == hash && entry.length == length && Self.same(keys + entry.start, q, length) {
                entries[index].count &+= 1
                return
            }
            slot = (slot &+ 1) & mask
        }
        insert(q, length, hash: hash, slot: slot)
    }

    /// The key bytes of entry `index`.
    private func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: keys + entries[index].start, count: entries[index].length)
    }

    /// The two most frequent words with their counts, ties broken by their bytes (which for ASCII is `String` order).
    func bestTwo() -> [(String, Int)] {
        func before(_ a: Int, _ b: Int) -> Bool {
            let x = entries[a].count, y = entries[b].count
            if x != y { return x > y }
            return key(a).lexicographicallyPrecedes(key(b))
        }
        var first = -1, second = -1
        for index in 0..<entryCount {
            if first < 0 {
                first = index
            } else if second < 0 {
                second = index
                if before(second, first) { swap(&first, &second) }
            } else if before(index, second) {
                second = index
                if before(second, first) { swap(&first, &second) }
            }
        }
        return [first, second].filter { $0 >= 0 }.map { (String(decoding: key($0), as: UTF8.self), entries[$0].count) }
    }

    // MARK: Storage

    private func insert(_ q: UnsafePointer<UInt8>, _ length: Int, hash: UInt64, slot: Int) {
        if keysCount &+ length > keysCapacity {
            let capacity = max(keysCapacity &* 2, keysCount &+ length)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity &+ Self.spare)
            grown.update(from: keys, count: keysCount)
            keys.deallocate()
            keys = grown
            keysCapacity = capacity
        }
        if entryCount == entryCapacity {
            let capacity = entryCapacity &* 2
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
            grown.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
            entries = grown
            entryCapacity = capacity
        }
        Self.storeLower(q, length, to: keys + keysCount)
        (entries + entryCount).initialize(to: Entry(start: keysCount, length: length, count: 1, hash: hash))
        slots[slot] = entryCount
        keysCount &+= length
        entryCount &+= 1
        if entryCount &* 2 > slotCount { growSlots() }
    }

    private func growSlots() {
        slots.deallocate()
        slotCount &*= 2
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: -1, count: slotCount)
        let mask = slotCount &- 1
        for index in 0..<entryCount {
            var slot = Int(truncatingIfNeeded: entries[index].hash >> 32) & mask
            while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = index
        }
    }

    // MARK: Bytes

    /// Eight bytes at `q`, lower-cased as letters.
    @inline(__always)
    private static func load8(_ q: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(q).loadUnaligned(as: UInt64.self)) | lowerBits
    }

    /// Four bytes at `q`, lower-cased as letters.
    @inline(__always)
    private static func load4(_ q: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(UInt32(littleEndian: UnsafeRawPointer(q).loadUnaligned(as: UInt32.self))) | 0x2020_2020
    }

    /// A hash of the lower-cased word: its first and last eight (or four) bytes and its length.
    @inline(__always)
    private static func hash(_ q: UnsafePointer<UInt8>, _ length: Int) -> UInt64 {
        let head: UInt64, tail: UInt64
        if length >= 8 {
            head = load8(q)
            tail = load8(q + (length &- 8))
        } else {
            head = load4(q)
            tail = load4(q + (length &- 4))
        }
        var h = (head &* 0x9E37_79B9_7F4A_7C15) ^ ((tail ^ UInt64(truncatingIfNeeded: length)) &* 0xC2B2_AE3D_27D4_EB4F)
        h ^= h >> 29
        h &*= 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h
    }

    /// Whether the stored key at `k` is the word at `q` lower-cased (both `length` bytes).
    @inline(__always)
    private static func same(_ k: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        if length < 8 {
            return UInt64(UInt32(littleEndian: UnsafeRawPointer(k).loadUnaligned(as: UInt32.self))) == load4(q)
                && UInt64(UInt32(littleEndian: UnsafeRawPointer(k + (length &- 4)).loadUnaligned(as: UInt32.self))) == load4(q + (length &- 4))
        }
        var o = 0
        while o &+ 8 < length {
            if UInt64(littleEndian: UnsafeRawPointer(k + o).loadUnaligned(as: UInt64.self)) != load8(q + o) { return false }
            o &+= 8
        }
        return UInt64(littleEndian: UnsafeRawPointer(k + (length &- 8)).loadUnaligned(as: UInt64.self)) == load8(q + (length &- 8))
    }

    /// Writes the word at `q` lower-cased to `to` (which has eight spare bytes past `length`).
    @inline(__always)
    private static func storeLower(_ q: UnsafePointer<UInt8>, _ length: Int, to: UnsafeMutablePointer<UInt8>) {
        if length < 8 {
            UnsafeMutableRawPointer(to).storeBytes(of: UInt32(truncatingIfNeeded: load4(q)).littleEndian, as: UInt32.self)
            UnsafeMutableRawPointer(to + (length &- 4)).storeBytes(of: UInt32(truncatingIfNeeded: load4(q + (length &- 4))).littleEndian, as: UInt32.self)
            return
        }
        var o = 0
        while o &+ 8 < length {
            UnsafeMutableRawPointer(to + o).storeBytes(of: load8(q + o).littleEndian, as: UInt64.self)
            o &+= 8
        }
        UnsafeMutableRawPointer(to + (length &- 8)).storeBytes(of: load8(q + (length &- 8)).littleEndian, as: UInt64.self)
    }
}
