//! BAPCtools' `{seed}`: the SHA-512 of `random_salt` + (`:<count - 1>` for a counted case) +
//! the command, as an integer modulo 2^31 (`int(hashlib.sha512(s).hexdigest(), 16) % 2**31`
//! in its `generate.py`), and its splitting of a command into arguments (Python's
//! `shlex.split`). Both are reproduced exactly, so that `judge gen` makes the bytes
//! `bt generate` makes.

/// The seed of a command: the last 31 bits of the SHA-512 of `salt`, the count suffix and
/// the command without leading and trailing white space.
pub fn seed(salt: &str, count_value: i64, command: &str) -> u32 {
    let mut text = salt.to_string();
    if count_value != 1 {
        text.push_str(&format!(":{}", count_value - 1));
    }
    text.push_str(python_strip(command));
    let digest = sha512(text.as_bytes());
    // A number modulo 2^31 depends only on its last 31 bits: the digest's last 4 bytes.
    u32::from_be_bytes([digest[60], digest[61], digest[62], digest[63]]) & 0x7fff_ffff
}

/// Python's `str.strip()`: Unicode white space at both ends.
fn python_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// Python's `shlex.split(s)` (POSIX mode, no comments): words split on white space, `'...'`
/// literal, `"..."` with `\"` and `\\` escapes, `\x` outside quotes a literal `x`.
pub fn shlex_split(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // shlex's white space: space, tab, CR, LF.
            ' ' | '\t' | '\r' | '\n' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\\' => {
                let next = chars
                    .next()
                    .ok_or_else(|| "no escaped character after `\\`".to_string())?;
                word.get_or_insert_with(String::new).push(next);
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        None => return Err("no closing quotation".into()),
                        Some('\'') => break,
                        Some(c) => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        None => return Err("no closing quotation".into()),
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&e @ ('"' | '\\')) => {
                                chars.next();
                                w.push(e);
                            }
                            _ => w.push('\\'),
                        },
                        Some(c) => w.push(c),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

const K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// SHA-512 (FIPS 180-4) of `data`.
pub fn sha512(data: &[u8]) -> [u8; 64] {
    let mut h: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 128 != 112 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u128) * 8).to_be_bytes());
    for block in message.chunks_exact(128) {
        let mut w = [0u64; 80];
        for (i, word) in block.chunks_exact(8).enumerate() {
            w[i] = u64::from_be_bytes(word.try_into().expect("8 bytes"));
        }
        for i in 16..80 {
            let s0 = w[i - 15].rotate_right(1) ^ w[i - 15].rotate_right(8) ^ (w[i - 15] >> 7);
            let s1 = w[i - 2].rotate_right(19) ^ w[i - 2].rotate_right(61) ^ (w[i - 2] >> 6);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..80 {
            let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 64];
    for (i, x) in h.iter().enumerate() {
        out[i * 8..i * 8 + 8].copy_from_slice(&x.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha512_matches_the_standard_vectors() {
        assert_eq!(
            hex(&sha512(b"abc")),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        );
        assert_eq!(
            hex(&sha512(b"")),
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce\
             47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
        );
        // Two blocks.
        let long = "a".repeat(200);
        assert_eq!(&hex(&sha512(long.as_bytes()))[..16], "4b11459c33f52a22");
    }

    #[test]
    fn seeds_follow_bapctools() {
        // python3 -c 'import hashlib; print(int(hashlib.sha512(b"gen {seed}").hexdigest(), 16) % 2**31)'
        assert_eq!(seed("", 1, "gen {seed}"), 33027537);
        assert_eq!(seed("abc", 3, "random_gen.py {seed:9}"), 548765356);
        assert_eq!(seed("def", 1, "random_gen.py  {seed}\n"), 27780964);
        assert_eq!(seed("", 1, "  gen {seed} "), seed("", 1, "gen {seed}"));
        assert_ne!(seed("", 1, "gen {seed}"), seed("", 2, "gen {seed}"));
        assert_ne!(seed("a", 1, "gen {seed}"), seed("", 1, "gen {seed}"));
    }

    #[test]
    fn shlex_splits_as_python_does() {
        let s = |t: &str| shlex_split(t).unwrap();
        assert_eq!(s("gen 1  2\n3"), ["gen", "1", "2", "3"]);
        assert_eq!(s("r 'a b'"), ["r", "a b"]);
        assert_eq!(s(r#"r "a\ b""#), ["r", r"a\ b"]);
        assert_eq!(s(r#"r "a b ""#), ["r", "a b "]);
        assert_eq!(s(r"r \ a\ b"), ["r", " a b"]);
        assert_eq!(s(r#"r '' "x\"y""#), ["r", "", "x\"y"]);
        assert!(shlex_split("r 'a").is_err());
    }
}
