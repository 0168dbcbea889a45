// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// A reverse registrar that stores primary names itself (no registry record): deployed as the root chain's default
/// reverse registrar and as each L2's reverse registrar, which on mainnet share this shape and event.
contract StandaloneReverseRegistrar {
    event NameForAddrChanged(address indexed addr, string name);

    mapping(address => string) private _names;

    function nameForAddr(address addr) external view returns (string memory) {
        return _names[addr];
    }

    function setName(string calldata name) external {
        _set(msg.sender, name);
    }

    /// An address may also name a contract it deployed, where the contract says it is its owner.
    function setNameForAddr(address addr, string calldata name) external {
        require(addr == msg.sender || _ownerOf(addr) == msg.sender, "not authorised");
        _set(addr, name);
    }

    function _set(address addr, string calldata name) private {
        _names[addr] = name;
        emit NameForAddrChanged(addr, name);
    }

    function _ownerOf(address target) private view returns (address) {
        if (target.code.length == 0) return address(0);
        (bool ok, bytes memory out) = target.staticcall(abi.encodeWithSignature("owner()"));
        return ok && out.length == 32 ? abi.decode(out, (address)) : address(0);
    }
}
