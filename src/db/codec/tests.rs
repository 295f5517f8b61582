use super::*;

fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    // Many games at one position, then scattered keys, the largest key
    // distances and a promotion's move code.
    for game in 1..=700 {
        out.push(Entry {
            key: 0x463b_9618_1691_fc9c,
            check: 7,
            game,
            mv: 796,
            result: (game % 4) as u8,
        });
    }
    out.push(Entry {
        key: 0x463b_9618_1691_fc9c,
        check: 8,
        game: 3,
        mv: 0,
        result: 1,
    });
    out.push(Entry {
        key: 0,
        check: 0,
        game: 1,
        mv: 1,
        result: 0,
    });
    out.push(Entry {
        key: u64::MAX,
        check: u16::MAX,
        game: u32::MAX,
        mv: 0x7fff,
        result: 3,
    });
    for i in 0..5000u64 {
        out.push(Entry {
            key: i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            check: (i * 31) as u16,
            game: (i * 7 + 1) as u32,
            mv: (i % 4096) as u16,
            result: (i % 3) as u8,
        });
    }
    out.sort_by(Entry::order);
    out
}

#[test]
fn blocks_give_back_every_entry_in_order() {
    let entries = entries();
    let mut writer = BlockWriter::new();
    let mut blocks = Vec::new();
    for &e in &entries {
        blocks.extend(writer.push(e));
    }
    blocks.extend(writer.finish());
    assert!(blocks.len() > 5, "{} blocks", blocks.len());
    let mut back = Vec::new();
    for (first, data) in &blocks {
        assert!(data.len() < BLOCK_BYTES + 64);
        read_block(*first, data, &mut |e| {
            back.push(e);
            true
        })
        .expect("a block we wrote reads");
    }
    assert_eq!(back, entries);
}

#[test]
fn a_position_shared_by_many_games_costs_a_few_bytes_a_game() {
    let mut writer = BlockWriter::new();
    let mut bytes = 0;
    for game in 1..=1000 {
        if let Some((_, data)) = writer.push(Entry {
            key: 42,
            check: 1,
            game,
            mv: 796,
            result: 1,
        }) {
            bytes += data.len();
        }
    }
    bytes += writer.finish().map_or(0, |(_, d)| d.len());
    // A repeat head, a game step of 1 and a 2-byte move: 4 bytes.
    assert!(bytes <= 4 * 1000 + 16, "{bytes} bytes");
}

#[test]
fn a_damaged_block_is_an_error_not_a_panic() {
    let entries = entries();
    let mut writer = BlockWriter::new();
    for &e in &entries[..50] {
        writer.push(e);
    }
    let (first, data) = writer.finish().expect("a block");
    for cut in 0..data.len() {
        let _ = read_block(first, &data[..cut], &mut |_| true);
    }
    let mut bad = data.clone();
    bad[0] = 2; // an even head that is not 0
    assert!(read_block(first, &bad, &mut |_| true).is_err());
    assert!(read_block(first, &[0x80; 12], &mut |_| true).is_err());
    assert!(read_block(first, &[0], &mut |_| true).is_err());
}

#[test]
fn stored_keys_sort_as_the_keys_do() {
    let keys = [
        0u64,
        1,
        1 << 62,
        (1 << 63) - 1,
        1 << 63,
        u64::MAX - 1,
        u64::MAX,
    ];
    for pair in keys.windows(2) {
        assert!(stored_key(pair[0]) < stored_key(pair[1]));
        assert_eq!(key_of_stored(stored_key(pair[0])), pair[0]);
    }
}

#[test]
fn moves_round_trip_and_an_odd_length_is_refused() {
    let moves = [796u16, 0x7fff, 1, 3308];
    assert_eq!(decode_moves(&encode_moves(&moves)).expect("even"), moves);
    assert!(decode_moves(&[1, 2, 3]).is_err());
}
