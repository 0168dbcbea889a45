// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IRegistry} from "./RegistryV2Interfaces.sol";

/// A test double, not a stand-in for any real contract: an ENSv2 registry reduced to what resolution reads. Its
/// deployer sets, per label, the subregistry and the resolver that `getSubregistry(label)` / `getResolver(label)`
/// answer, and the registry's own parent link (`getParent`): IRegistry's functions, not its events (it emits none, so
/// an indexer matching registries by their events never takes it for one). No tokens, owners, expiry or roles. Tests
/// deploy it to build ENSv2 trees for the resolution contracts (UniversalResolverV2) without the real registries; the
/// devnet never deploys it.
contract DevnetTestRegistry {
    address public immutable admin;
    mapping(bytes32 labelHash => IRegistry) private _subregistries;
    mapping(bytes32 labelHash => address) private _resolvers;
    IRegistry private _parent;
    string private _parentLabel;

    constructor() {
        admin = msg.sender;
    }

    modifier onlyAdmin() {
        require(msg.sender == admin, "DevnetTestRegistry: only the deployer");
        _;
    }

    function setSubregistry(string calldata label, IRegistry registry) external onlyAdmin {
        _subregistries[keccak256(bytes(label))] = registry;
    }

    function setResolver(string calldata label, address resolver) external onlyAdmin {
        _resolvers[keccak256(bytes(label))] = resolver;
    }

    function setParent(IRegistry parent, string calldata label) external onlyAdmin {
        _parent = parent;
        _parentLabel = label;
    }

    function getSubregistry(string calldata label) external view returns (IRegistry) {
        return _subregistries[keccak256(bytes(label))];
    }

    function getResolver(string calldata label) external view returns (address) {
        return _resolvers[keccak256(bytes(label))];
    }

    function getParent() external view returns (IRegistry parent, string memory label) {
        return (_parent, _parentLabel);
    }
}
