//! A minimal zip writer: stored (uncompressed) entries with Unix modes, a fixed timestamp
//! (the same package gives the same bytes), no zip64. Enough for a problem package, which
//! DOMjudge and problemtools read with any zip library; it saves a dependency.

use std::io::{self, Write};

/// CRC-32 (IEEE, reflected), as zip wants it.
fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, slot) in t.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
            *slot = c;
        }
        t
    });
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

/// One file of the archive: its path (with `/`), contents and whether it is executable.
pub struct Entry<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub executable: bool,
}

/// DOS date of 1980-01-01 00:00 (the earliest zip can say).
const DOS_DATE: u16 = (1 << 5) | 1;

fn too_big() -> io::Error {
    io::Error::other("the package is too large for a zip without zip64 (4 GiB)")
}

/// Writes `entries` as a zip archive to `w`.
pub fn write(w: &mut impl Write, entries: &[Entry]) -> io::Result<()> {
    let mut central = Vec::new();
    let mut offset: u64 = 0;
    for e in entries {
        let crc = crc32(e.bytes);
        let size = u32::try_from(e.bytes.len()).map_err(|_| too_big())?;
        let name = e.path.as_bytes();
        let name_len = u16::try_from(name.len()).map_err(|_| too_big())?;
        let local_offset = u32::try_from(offset).map_err(|_| too_big())?;
        let mut local = Vec::with_capacity(30 + name.len());
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&10u16.to_le_bytes()); // version needed: 1.0
        local.extend_from_slice(&0x0800u16.to_le_bytes()); // flags: UTF-8 names
        local.extend_from_slice(&0u16.to_le_bytes()); // method: stored
        local.extend_from_slice(&0u16.to_le_bytes()); // time
        local.extend_from_slice(&DOS_DATE.to_le_bytes());
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&size.to_le_bytes());
        local.extend_from_slice(&name_len.to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes()); // extra length
        local.extend_from_slice(name);
        w.write_all(&local)?;
        w.write_all(e.bytes)?;
        offset += local.len() as u64 + e.bytes.len() as u64;

        let mode: u32 = if e.executable { 0o100755 } else { 0o100644 };
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&((3u16 << 8) | 30).to_le_bytes()); // made by: Unix, 3.0
        central.extend_from_slice(&10u16.to_le_bytes());
        central.extend_from_slice(&0x0800u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&DOS_DATE.to_le_bytes());
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&size.to_le_bytes());
        central.extend_from_slice(&size.to_le_bytes());
        central.extend_from_slice(&name_len.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes()); // extra
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&(mode << 16).to_le_bytes());
        central.extend_from_slice(&local_offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let count = u16::try_from(entries.len()).map_err(|_| too_big())?;
    let central_offset = u32::try_from(offset).map_err(|_| too_big())?;
    let central_size = u32::try_from(central.len()).map_err(|_| too_big())?;
    w.write_all(&central)?;
    let mut end = Vec::with_capacity(22);
    end.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&central_size.to_le_bytes());
    end.extend_from_slice(&central_offset.to_le_bytes());
    end.extend_from_slice(&0u16.to_le_bytes());
    w.write_all(&end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn an_archive_ends_with_its_directory() {
        let mut buf = Vec::new();
        let entries = [
            Entry {
                path: "problem.yaml",
                bytes: b"name: x\n",
                executable: false,
            },
            Entry {
                path: "a/build",
                bytes: b"#!/bin/sh\n",
                executable: true,
            },
        ];
        write(&mut buf, &entries).unwrap();
        assert_eq!(&buf[..4], b"PK\x03\x04");
        let end = &buf[buf.len() - 22..];
        assert_eq!(&end[..4], b"PK\x05\x06");
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 2);
    }
}
