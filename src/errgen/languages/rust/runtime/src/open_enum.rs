//! Open enums: each known value has a variant, and any other string from the wire is kept in
//! `Unknown(String)`, so a payload from a newer server still parses and serializes back exactly.

/// A known value and its wire string: one row of an enum's table.
pub struct Wire<T: 'static> {
    pub value: T,
    pub wire: &'static str,
}

/// The string conversions, `Display` and serde impls of an open enum whose known values are the
/// rows of `$table`, each holding the value in `$value` and its wire string in `$wire`.
macro_rules! open_enum {
    ($name:ident, $table:expr, $value:ident, $wire:ident) => {
        impl $name {
            /// Every value this registry knows, in registry order.
            pub fn known() -> impl Iterator<Item = &'static $name> {
                $table.iter().map(|row| &row.$value)
            }

            /// The value a wire string stands for; a string this registry does not know is kept
            /// as `Unknown`, never an error.
            #[must_use]
            pub fn from_wire(wire: &str) -> Self {
                // Indexed on first use, so a lookup does not grow with the registry.
                static INDEX: std::sync::OnceLock<
                    crate::table::FastMap<&'static str, &'static $name>,
                > = std::sync::OnceLock::new();
                INDEX
                    .get_or_init(|| $table.iter().map(|row| (row.$wire, &row.$value)).collect())
                    .get(wire)
                    .map_or_else(|| $name::Unknown(wire.to_owned()), |value| (*value).clone())
            }

            /// The exact wire string.
            #[must_use]
            pub fn as_str(&self) -> &str {
                // Indexed on first use, like `from_wire`: a scan of the table was one comparison
                // per code on every call (20,000 at 20,000 codes, for each payload written).
                static INDEX: std::sync::OnceLock<
                    crate::table::FastMap<&'static $name, &'static str>,
                > = std::sync::OnceLock::new();
                match self {
                    $name::Unknown(wire) => wire,
                    known => INDEX
                        .get_or_init(|| $table.iter().map(|row| (&row.$value, row.$wire)).collect())
                        .get(known)
                        .map_or("", |wire| *wire),
                }
            }

            /// Whether this registry version knows the value.
            #[must_use]
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Unknown(_))
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;

            fn from_str(wire: &str) -> Result<Self, Self::Err> {
                Ok(Self::from_wire(wire))
            }
        }

        impl From<&str> for $name {
            fn from(wire: &str) -> Self {
                Self::from_wire(wire)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<Self, D::Error> {
                let wire = <::std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                Ok(Self::from_wire(&wire))
            }
        }
    };
}

pub(crate) use open_enum;

/// `as_str`, `Display` and `Serialize` for an enum of this crate's own ids (every value known),
/// whose wire strings are the rows of `$table`.
macro_rules! closed_enum {
    ($name:ident, $table:expr) => {
        impl $name {
            /// The exact wire string.
            #[must_use]
            pub fn as_str(&self) -> &'static str {
                $table
                    .iter()
                    .find(|row| row.value == *self)
                    .map_or("", |row| row.wire)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

pub(crate) use closed_enum;
