#![no_main]
// See gateway_migrate::fuzz::inplace_regions for what this target checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gateway_migrate::fuzz::inplace_regions(data);
});
