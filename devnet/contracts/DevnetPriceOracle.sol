// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// Prices for our own controllers, split like mainnet's `IPriceOracle` into a base cost and a premium.
/// Rent is per second by label length (in code points); labels of 3 or 4 code points also carry a fixed premium,
/// so the devnet emits non-zero `premium` values without replaying a real expiry auction.
contract DevnetPriceOracle {
    uint256 public constant RENT_SHORT = 20 gwei; // per second, 3 code points (~0.63 ETH a year)
    uint256 public constant RENT_MEDIUM = 5 gwei; // per second, 4 code points (~0.16 ETH a year)
    uint256 public constant RENT_LONG = 0.15 gwei; // per second, 5+ code points (~0.005 ETH a year)
    uint256 public constant SHORT_PREMIUM = 0.01 ether;

    function price(string calldata name, uint256, uint256 duration) external pure returns (uint256 base, uint256 premium) {
        uint256 len = strlen(name);
        uint256 rent = len <= 3 ? RENT_SHORT : len == 4 ? RENT_MEDIUM : RENT_LONG;
        base = rent * duration;
        premium = len <= 4 ? SHORT_PREMIUM : 0;
    }

    /// Number of UTF-8 code points, as ENS's StringUtils counts them.
    function strlen(string memory s) public pure returns (uint256 len) {
        bytes memory b = bytes(s);
        uint256 i = 0;
        while (i < b.length) {
            uint8 c = uint8(b[i]);
            i += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : c < 0xFC ? 5 : 6;
            len++;
        }
    }
}
