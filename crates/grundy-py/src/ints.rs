//! Python ints of any size in and out, exact (through little-endian bytes, so no decimal-digit
//! limit applies): what both the conversions of built-in games and the games from `moves` use.

use num_bigint::BigUint;
use num_traits::ToPrimitive;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

/// A Python `int` of any size from a `BigUint`.
pub fn int_from_biguint<'py>(py: Python<'py>, number: &BigUint) -> PyResult<Bound<'py, PyAny>> {
    if let Some(small) = number.to_u64() {
        return Ok(small.into_pyobject(py)?.into_any());
    }
    let bytes = PyBytes::new(py, &number.to_bytes_le());
    py.get_type::<PyInt>().call_method1("from_bytes", (bytes, "little"))
}

/// A non-negative Python `int` as a `BigUint`; `None` for a negative one.
pub fn biguint_from_int(object: &Bound<'_, PyAny>) -> PyResult<Option<BigUint>> {
    if let Ok(small) = object.extract::<u64>() {
        return Ok(Some(BigUint::from(small)));
    }
    if object.lt(0)? {
        return Ok(None);
    }
    let bits: u64 = object.call_method0("bit_length")?.extract()?;
    let bytes = object.call_method1("to_bytes", (bits.div_ceil(8), "little"))?;
    Ok(Some(BigUint::from_bytes_le(bytes.cast::<PyBytes>()?.as_bytes())))
}
