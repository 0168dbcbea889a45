// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS} from "./Interfaces.sol";

/// The part of ENS's UniversalResolver the indexer's onchain path reads: `findResolver(name)`, ENSIP-10's walk over the
/// registry from the name up to its TLD, answering the resolver found (or zero), the name's namehash and the byte
/// offset in `name` of the label whose node has that resolver, as ens-contracts' RegistryUtils.findResolver does.
contract UniversalResolver {
    IENS public immutable registry;

    constructor(IENS _registry) {
        registry = _registry;
    }

    function findResolver(bytes calldata name) external view returns (address, bytes32, uint256) {
        return _find(name, 0);
    }

    function _find(bytes calldata name, uint256 offset) private view returns (address resolver, bytes32 node, uint256 resolverOffset) {
        require(offset < name.length, "DNSDecodingFailed");
        uint256 length = uint8(name[offset]);
        if (length == 0) return (address(0), bytes32(0), offset);
        require(offset + 1 + length < name.length, "DNSDecodingFailed");
        (address parentResolver, bytes32 parentNode, uint256 parentOffset) = _find(name, offset + 1 + length);
        node = keccak256(abi.encodePacked(parentNode, keccak256(name[offset + 1:offset + 1 + length])));
        resolver = registry.resolver(node);
        return resolver != address(0) ? (resolver, node, offset) : (parentResolver, node, parentOffset);
    }
}
