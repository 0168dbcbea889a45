// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// The ENSv2 registry interface (contracts-v2's IRegistry and IRegistryEvents): what resolution walks (a label's
/// subregistry and resolver, the registry's canonical parent) and the events every registry emits, with the real
/// signatures and `indexed` flags.
interface IRegistry {
    event LabelRegistered(
        uint256 indexed tokenId, bytes32 indexed labelHash, string label, address owner, uint64 expiry, address indexed sender
    );
    event LabelReserved(uint256 indexed tokenId, bytes32 indexed labelHash, string label, uint64 expiry, address indexed sender);
    event LabelUnregistered(uint256 indexed tokenId, address indexed sender);
    event ExpiryUpdated(uint256 indexed tokenId, uint64 indexed newExpiry, address indexed sender);
    event SubregistryUpdated(uint256 indexed tokenId, IRegistry indexed subregistry, address indexed sender);
    event ResolverUpdated(uint256 indexed tokenId, address indexed resolver, address indexed sender);
    event TokenRegenerated(uint256 indexed oldTokenId, uint256 indexed newTokenId);
    event ParentUpdated(IRegistry indexed parent, string label, address indexed sender);

    function getSubregistry(string calldata label) external view returns (IRegistry);
    function getResolver(string calldata label) external view returns (address);
    function getParent() external view returns (IRegistry parent, string memory label);
}

/// What a registrar or a migration controller asks of a permissioned registry (the `.eth` registry).
interface IPermissionedRegistry is IRegistry {
    enum Status {
        AVAILABLE,
        RESERVED,
        REGISTERED
    }

    struct State {
        Status status;
        uint64 expiry;
        address latestOwner;
        uint256 tokenId;
        uint256 resource;
    }

    function register(
        string calldata label,
        address owner,
        IRegistry registry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry
    ) external returns (uint256 tokenId);
    function renew(uint256 anyId, uint64 newExpiry) external;
    function getState(uint256 anyId) external view returns (State memory);
    function getStatus(uint256 anyId) external view returns (Status);
}
