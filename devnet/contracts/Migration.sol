// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS, IERC1155Receiver, IERC721Receiver} from "./Interfaces.sol";
import {PermissionedRegistry, RegistryRoles} from "./PermissionedRegistry.sol";
import {IRegistry, IPermissionedRegistry} from "./RegistryV2Interfaces.sol";
import {ProxyInitializable, VerifiableFactory} from "./VerifiableFactory.sol";

/*
 * ENSv1 → ENSv2 migration, as contracts-v2 does it. An ENSv1 owner sends its token (the base registrar's ERC-721 or
 * the NameWrapper's ERC-1155) to a migration contract with `abi.encode(MigrationData)`; the contract keeps the token,
 * clears the ENSv1 resolver and registers the name in ENSv2 for the owner. Unlocked names go to the
 * UnlockedMigrationController, locked ones (CANNOT_UNWRAP) to the LockedMigrationController, which gives each its own
 * WrapperRegistry; a locked name's emancipated subnames later migrate into that WrapperRegistry.
 */

/// The payload of the transfer to a migration contract (contracts-v2's LibMigration.Data).
struct MigrationData {
    string label;
    address owner;
    IRegistry subregistry;
    address resolver;
}

/// NameWrapper fuses (ens-contracts' INameWrapper).
library Fuses {
    uint32 internal constant CANNOT_UNWRAP = 1;
    uint32 internal constant CANNOT_BURN_FUSES = 2;
    uint32 internal constant CANNOT_TRANSFER = 4;
    uint32 internal constant CANNOT_SET_RESOLVER = 8;
    uint32 internal constant CANNOT_CREATE_SUBDOMAIN = 32;
    uint32 internal constant PARENT_CANNOT_CONTROL = 1 << 16;
    uint32 internal constant IS_DOT_ETH = 1 << 17;
    uint32 internal constant CAN_EXTEND_EXPIRY = 1 << 18;
}

/// The slice of ENSv1's NameWrapper that migration calls.
interface INameWrapperV1 {
    function ens() external view returns (IENS);
    function registrar() external view returns (IBaseRegistrarV1);
    function getData(uint256 id) external view returns (address owner, uint32 fuses, uint64 expiry);
    function getApproved(uint256 id) external view returns (address);
    function setResolver(bytes32 node, address resolver) external;
    function unwrap(bytes32 parentNode, bytes32 labelhash, address controller) external;
    function names(bytes32 node) external view returns (bytes memory);
}

interface IBaseRegistrarV1 {
    function reclaim(uint256 id, address owner) external;
}

error NameRequiresMigration();
error NameNotLocked(uint256 tokenId);
error NameIsLocked(uint256 tokenId);
error NameDataMismatch(uint256 tokenId);
error FrozenTokenApproval(uint256 tokenId);
error UnauthorizedCaller(address caller);
error InvalidOwner();

bytes32 constant ETH_NODE = 0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae;

function childNode(bytes32 parent, string memory label) pure returns (bytes32) {
    return keccak256(abi.encodePacked(parent, keccak256(bytes(label))));
}

/// Receives NameWrapper tokens with migration data and migrates each, in a call to itself so that the registries
/// see this contract as the sender (as the real contracts do).
abstract contract NameWrapperReceiver is IERC1155Receiver {
    INameWrapperV1 public immutable NAME_WRAPPER;
    IENS internal immutable _REGISTRY_V1;

    constructor(INameWrapperV1 nameWrapper) {
        NAME_WRAPPER = nameWrapper;
        _REGISTRY_V1 = nameWrapper.ens();
    }

    function onERC1155Received(address, address, uint256 id, uint256, bytes calldata data) external returns (bytes4) {
        if (msg.sender != address(NAME_WRAPPER)) revert UnauthorizedCaller(msg.sender);
        uint256[] memory ids = new uint256[](1);
        MigrationData[] memory mds = new MigrationData[](1);
        ids[0] = id;
        mds[0] = abi.decode(data, (MigrationData));
        this.finishMigration(ids, mds);
        return IERC1155Receiver.onERC1155Received.selector;
    }

    function onERC1155BatchReceived(address, address, uint256[] calldata ids, uint256[] calldata, bytes calldata data)
        external
        returns (bytes4)
    {
        if (msg.sender != address(NAME_WRAPPER)) revert UnauthorizedCaller(msg.sender);
        this.finishMigration(ids, abi.decode(data, (MigrationData[])));
        return IERC1155Receiver.onERC1155BatchReceived.selector;
    }

    function finishMigration(uint256[] calldata ids, MigrationData[] calldata mds) external {
        if (msg.sender != address(this)) revert UnauthorizedCaller(msg.sender);
        if (ids.length != mds.length) revert NameDataMismatch(ids.length);
        for (uint256 i; i < ids.length; ++i) _migrateWrapped(ids[i], mds[i]);
    }

    function supportsInterface(bytes4 interfaceId) public view virtual returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == type(IERC1155Receiver).interfaceId;
    }

    function _migrateWrapped(uint256 id, MigrationData memory md) internal virtual;

    function _isLocked(uint32 fuses) internal pure returns (bool) {
        return fuses & Fuses.CANNOT_UNWRAP != 0;
    }
}

/// Stands for contracts-v2's UnlockedMigrationController: takes unwrapped `.eth` 2LDs (base registrar ERC-721) and
/// unlocked wrapped ones (NameWrapper ERC-1155), keeps them, clears their ENSv1 resolver and registers the name,
/// which premigration reserved, in the `.eth` registry for the owner with the registrar's roles and the reserved
/// expiry. A locked name is refused (it needs the LockedMigrationController).
contract UnlockedMigrationController is NameWrapperReceiver, IERC721Receiver {
    IPermissionedRegistry public immutable ETH_REGISTRY;
    IBaseRegistrarV1 internal immutable _REGISTRAR_V1;

    constructor(INameWrapperV1 nameWrapper, IPermissionedRegistry ethRegistry) NameWrapperReceiver(nameWrapper) {
        ETH_REGISTRY = ethRegistry;
        _REGISTRAR_V1 = nameWrapper.registrar();
    }

    function onERC721Received(address, address, uint256 tokenId, bytes calldata data) external returns (bytes4) {
        if (msg.sender != address(_REGISTRAR_V1)) revert UnauthorizedCaller(msg.sender);
        MigrationData memory md = abi.decode(data, (MigrationData));
        if (tokenId != uint256(keccak256(bytes(md.label)))) revert NameDataMismatch(tokenId);
        _REGISTRAR_V1.reclaim(tokenId, address(this));
        _REGISTRY_V1.setResolver(childNode(ETH_NODE, md.label), address(0));
        _registerInEth(md);
        return IERC721Receiver.onERC721Received.selector;
    }

    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IERC721Receiver).interfaceId || super.supportsInterface(interfaceId);
    }

    function _migrateWrapped(uint256 id, MigrationData memory md) internal override {
        (, uint32 fuses,) = NAME_WRAPPER.getData(id);
        if (_isLocked(fuses)) revert NameIsLocked(id);
        if (bytes32(id) != childNode(ETH_NODE, md.label)) revert NameDataMismatch(id);
        NAME_WRAPPER.setResolver(bytes32(id), address(0));
        _registerInEth(md);
    }

    function _registerInEth(MigrationData memory md) private {
        if (md.owner == address(0)) revert InvalidOwner();
        // Expiry 0: the reservation's. Reverts unless the name is reserved.
        ETH_REGISTRY.register(md.label, md.owner, md.subregistry, md.resolver, RegistryRoles.REGISTRATION, 0);
    }
}

/// Migration of locked wrapped names below one ENSv1 node (`getWrappedNode`): a locked name gets a WrapperRegistry of
/// its own, with roles from its fuses, and keeps its ENSv1 resolver only if CANNOT_SET_RESOLVER is burnt; an
/// emancipated (PARENT_CANNOT_CONTROL) unlocked child is unwrapped and registered with the registrar's roles.
abstract contract LockedNameReceiver is NameWrapperReceiver {
    VerifiableFactory public immutable VERIFIABLE_FACTORY;
    address public immutable WRAPPER_REGISTRY_IMPL;

    constructor(INameWrapperV1 nameWrapper, VerifiableFactory factory, address wrapperRegistryImpl)
        NameWrapperReceiver(nameWrapper)
    {
        VERIFIABLE_FACTORY = factory;
        WRAPPER_REGISTRY_IMPL = wrapperRegistryImpl;
    }

    function getWrappedNode() public view virtual returns (bytes32);

    function _migrateWrapped(uint256 id, MigrationData memory md) internal override {
        if (md.owner == address(0)) revert InvalidOwner();
        bytes32 parentNode = getWrappedNode();
        bytes32 node = bytes32(id);
        if (node != childNode(parentNode, md.label)) revert NameDataMismatch(id);
        (, uint32 fuses, uint64 expiry) = NAME_WRAPPER.getData(id);
        if (_isLocked(fuses)) {
            if (NAME_WRAPPER.getApproved(id) != address(0)) revert FrozenTokenApproval(id);
            if (fuses & Fuses.CANNOT_SET_RESOLVER == 0) NAME_WRAPPER.setResolver(node, address(0));
            else md.resolver = _REGISTRY_V1.resolver(node);
            bytes memory init = abi.encodeCall(
                WrapperRegistry.initialize, (node, _registryForChildren(), md.label, md.owner, _subregistryRoles(fuses))
            );
            IRegistry subregistry = IRegistry(VERIFIABLE_FACTORY.deployProxy(WRAPPER_REGISTRY_IMPL, id, init));
            _inject(md.label, md.owner, subregistry, md.resolver, _tokenRoles(fuses), expiry);
        } else if (_isEmancipated(fuses)) {
            NAME_WRAPPER.unwrap(parentNode, keccak256(bytes(md.label)), address(this));
            _REGISTRY_V1.setResolver(node, address(0));
            _inject(md.label, md.owner, md.subregistry, md.resolver, RegistryRoles.REGISTRATION, expiry);
        } else {
            revert NameNotLocked(id);
        }
    }

    function _inject(
        string memory label,
        address owner,
        IRegistry subregistry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry
    ) internal virtual;

    /// The registry the migrated names are registered in: the parent of their WrapperRegistries.
    function _registryForChildren() internal view virtual returns (IRegistry);

    /// An emancipated child still wrapped in ENSv1 (not yet migrated here).
    function _isMigratableChild(string memory label) internal view returns (bool) {
        (address holder, uint32 fuses,) = NAME_WRAPPER.getData(uint256(childNode(getWrappedNode(), label)));
        return holder != address(0) && holder != address(this) && _isEmancipated(fuses);
    }

    function _isEmancipated(uint32 fuses) private pure returns (bool) {
        return fuses & (Fuses.IS_DOT_ETH | Fuses.PARENT_CANNOT_CONTROL) == Fuses.PARENT_CANNOT_CONTROL;
    }

    /// The name's owner on its WrapperRegistry: registrar unless CANNOT_CREATE_SUBDOMAIN, admin unless
    /// CANNOT_BURN_FUSES, always renewal.
    function _subregistryRoles(uint32 fuses) private pure returns (uint256 roles) {
        if (fuses & Fuses.CANNOT_CREATE_SUBDOMAIN == 0) roles |= RegistryRoles.REGISTRAR;
        if (fuses & Fuses.CANNOT_BURN_FUSES == 0) roles |= roles << 128;
        roles |= RegistryRoles.RENEW | (RegistryRoles.RENEW << 128);
    }

    /// The name's owner on its token: renew if CAN_EXTEND_EXPIRY, resolver unless CANNOT_SET_RESOLVER, their admin
    /// bits unless CANNOT_BURN_FUSES, transfer unless CANNOT_TRANSFER.
    function _tokenRoles(uint32 fuses) private pure returns (uint256 roles) {
        if (fuses & Fuses.CAN_EXTEND_EXPIRY != 0) roles |= RegistryRoles.RENEW;
        if (fuses & Fuses.CANNOT_SET_RESOLVER == 0) roles |= RegistryRoles.SET_RESOLVER;
        if (fuses & Fuses.CANNOT_BURN_FUSES == 0) roles |= roles << 128;
        if (fuses & Fuses.CANNOT_TRANSFER == 0) roles |= RegistryRoles.CAN_TRANSFER_ADMIN;
    }
}

/// Stands for contracts-v2's LockedMigrationController: migrates locked `.eth` 2LDs into the `.eth` registry (each
/// reserved by premigration, whose expiry it keeps), each with a WrapperRegistry of its own.
contract LockedMigrationController is LockedNameReceiver {
    IPermissionedRegistry public immutable ETH_REGISTRY;

    constructor(
        INameWrapperV1 nameWrapper,
        IPermissionedRegistry ethRegistry,
        VerifiableFactory factory,
        address wrapperRegistryImpl
    ) LockedNameReceiver(nameWrapper, factory, wrapperRegistryImpl) {
        ETH_REGISTRY = ethRegistry;
    }

    function getWrappedNode() public pure override returns (bytes32) {
        return ETH_NODE;
    }

    function _inject(string memory label, address owner, IRegistry subregistry, address resolver, uint256 roles, uint64)
        internal
        override
    {
        ETH_REGISTRY.register(label, owner, subregistry, resolver, roles, 0);
    }

    function _registryForChildren() internal view override returns (IRegistry) {
        return ETH_REGISTRY;
    }
}

/// Stands for contracts-v2's WrapperRegistry: the ENSv2 registry of a migrated locked name's subnames. Deployed per
/// name as a proxy by the migration that moved the name, canonical from birth (initialize sets the parent, with no
/// ParentUpdated: the parent's SubregistryUpdated links it). Its emancipated ENSv1 children migrate into it as their
/// holders send their NameWrapper tokens; until then nobody may register over them, and it answers the ENSv1
/// fallback resolver (V1_RESOLVER) as their resolver, so they keep resolving through ENSv1.
contract WrapperRegistry is PermissionedRegistry, LockedNameReceiver, ProxyInitializable {
    address public immutable V1_RESOLVER;
    bytes32 internal _node;

    constructor(INameWrapperV1 nameWrapper, VerifiableFactory factory, address ensV1Resolver)
        PermissionedRegistry(address(0), 0)
        LockedNameReceiver(nameWrapper, factory, address(this))
    {
        V1_RESOLVER = ensV1Resolver;
    }

    function initialize(bytes32 node, IRegistry parent, string calldata label, address admin, uint256 roleBitmap)
        external
        initializer
    {
        _node = node;
        _parent = parent;
        _labelInParent = label;
        _grantRoles(ROOT_RESOURCE, RegistryRoles.UPGRADE | (RegistryRoles.UPGRADE << 128) | roleBitmap, admin, false);
    }

    function getWrappedNode() public view override returns (bytes32) {
        return _node;
    }

    /// The wrapped name in DNS wire format, as the NameWrapper keeps it.
    function getWrappedName() external view returns (bytes memory) {
        return NAME_WRAPPER.names(_node);
    }

    function register(
        string calldata label,
        address owner,
        IRegistry registry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry
    ) public override returns (uint256) {
        if (_isMigratableChild(label)) revert NameRequiresMigration();
        return super.register(label, owner, registry, resolver, roleBitmap, expiry);
    }

    function getResolver(string calldata label) public view override returns (address) {
        return _isMigratableChild(label) ? V1_RESOLVER : super.getResolver(label);
    }

    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(PermissionedRegistry, NameWrapperReceiver)
        returns (bool)
    {
        bytes4 wrapper = this.initialize.selector ^ this.getWrappedName.selector ^ this.getWrappedNode.selector;
        return interfaceId == wrapper || PermissionedRegistry.supportsInterface(interfaceId)
            || NameWrapperReceiver.supportsInterface(interfaceId);
    }

    function _inject(
        string memory label,
        address owner,
        IRegistry subregistry,
        address resolver,
        uint256 roleBitmap,
        uint64 expiry
    ) internal override {
        _register(label, owner, subregistry, resolver, roleBitmap, expiry, false);
    }

    function _registryForChildren() internal view override returns (IRegistry) {
        return this;
    }
}
