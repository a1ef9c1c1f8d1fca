import CheckrunModel
import Testing

/// Hashes must be the standard ones: anyone can recompute a report's digests with sha256sum.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "x", count: 119), "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
        ("é×\n", "9f0b8d30e3ff2572824c57f92347e7761ee0eabd91e51c0b4bbe8bff44f3b671"),
    ])
    func matchesSha256sum(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }
}
