#![no_main]
// See gateway_migrate::fuzz::report for what this target checks.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gateway_migrate::fuzz::report(data);
});
