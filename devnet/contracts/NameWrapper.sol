// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IENS, IBaseRegistrar, IERC1155Receiver} from "./Interfaces.sol";

/// A small NameWrapper: ERC-1155 tokens (id = node) for names under `baseNode` (.eth on the root chain, linea.eth on
/// Linea), with fuses and expiry. It holds the registry record (and, for 2LDs, the registrar token) of every wrapped
/// name, and emits exactly mainnet's events, so `owner`/`ownerOf`/`balanceOf`/`getData` reads match what an indexer
/// derives from the logs.
contract NameWrapper {
    uint32 public constant CANNOT_UNWRAP = 1;
    uint32 public constant CANNOT_TRANSFER = 4;
    uint32 public constant PARENT_CANNOT_CONTROL = 1 << 16;
    uint32 public constant IS_DOT_ETH = 1 << 17;
    uint64 public constant GRACE_PERIOD = 90 days;

    event NameWrapped(bytes32 indexed node, bytes name, address owner, uint32 fuses, uint64 expiry);
    event NameUnwrapped(bytes32 indexed node, address owner);
    event FusesSet(bytes32 indexed node, uint32 fuses);
    event ExpiryExtended(bytes32 indexed node, uint64 expiry);
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event ControllerChanged(address indexed controller, bool active);

    struct Data {
        address owner;
        uint32 fuses;
        uint64 expiry;
    }

    IENS public immutable ens;
    IBaseRegistrar public immutable registrar;
    bytes32 public immutable baseNode;
    address public immutable admin;
    mapping(address => bool) public controllers;
    mapping(uint256 => Data) private data;
    mapping(bytes32 => bytes) public names; // DNS wire format, as in NameWrapped
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    constructor(IENS _ens, IBaseRegistrar _registrar, bytes32 _baseNode, bytes memory baseNameWire) {
        ens = _ens;
        registrar = _registrar;
        baseNode = _baseNode;
        admin = msg.sender;
        names[_baseNode] = baseNameWire;
    }

    function setController(address controller, bool active) external {
        require(msg.sender == admin, "only admin");
        controllers[controller] = active;
        emit ControllerChanged(controller, active);
    }

    // ---- views ----

    function getData(uint256 id) public view returns (address owner, uint32 fuses, uint64 expiry) {
        Data memory d = data[id];
        return (d.owner, d.fuses, d.expiry);
    }

    function ownerOf(uint256 id) public view returns (address) {
        return data[id].owner;
    }

    function balanceOf(address account, uint256 id) public view returns (uint256) {
        return data[id].owner == account && account != address(0) ? 1 : 0;
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids) external view returns (uint256[] memory out) {
        out = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; i++) out[i] = balanceOf(accounts[i], ids[i]);
    }

    /// Mainnet's per-token approval (ERC1155Fuse `approve`/`getApproved`), which ENSv2's LockedMigrationController
    /// reads before it migrates a locked name. This wrapper only has approval for all: no token is ever approved.
    function getApproved(uint256) external pure returns (address) {
        return address(0);
    }

    function isWrapped(bytes32 node) public view returns (bool) {
        return data[uint256(node)].owner != address(0) && ens.owner(node) == address(this);
    }

    // ---- .eth (or linea.eth) second-level names ----

    /// Used by controllers: registers through the base registrar and wraps in one step.
    function registerAndWrapETH2LD(string calldata label, address wrappedOwner, uint256 duration, address resolver, uint16 ownerControlledFuses)
        external
        returns (uint256 registrarExpiry)
    {
        require(controllers[msg.sender], "only controller");
        bytes32 labelhash = keccak256(bytes(label));
        registrarExpiry = registrar.register(uint256(labelhash), address(this), duration);
        _wrapETH2LD(label, labelhash, wrappedOwner, uint32(ownerControlledFuses), uint64(registrarExpiry) + GRACE_PERIOD, resolver);
    }

    /// Wraps a 2LD the caller owns (or may transfer) in the base registrar.
    function wrapETH2LD(string calldata label, address wrappedOwner, uint16 ownerControlledFuses, address resolver) external returns (uint64 expiry) {
        bytes32 labelhash = keccak256(bytes(label));
        uint256 id = uint256(labelhash);
        address registrant = registrar.ownerOf(id);
        require(
            registrant == msg.sender || registrar.isApprovedForAll(registrant, msg.sender) || registrar.getApproved(id) == msg.sender,
            "not the registrant"
        );
        registrar.transferFrom(registrant, address(this), id);
        registrar.reclaim(id, address(this));
        expiry = uint64(registrar.nameExpires(id)) + GRACE_PERIOD;
        _wrapETH2LD(label, labelhash, wrappedOwner, uint32(ownerControlledFuses), expiry, resolver);
    }

    /// Gives the registrar token back to `registrant` and the registry record to `controller`.
    function unwrapETH2LD(bytes32 labelhash, address registrant, address controller) external {
        bytes32 node = keccak256(abi.encodePacked(baseNode, labelhash));
        _unwrap(node, controller);
        registrar.safeTransferFrom(address(this), registrant, uint256(labelhash));
    }

    /// Controllers renew through the wrapper so the wrapped expiry follows the registrar's. Like mainnet, no event:
    /// the registrar's NameRenewed carries the new expiry.
    function renew(uint256 tokenId, uint256 duration) external returns (uint256 expires) {
        require(controllers[msg.sender], "only controller");
        expires = registrar.renew(tokenId, duration);
        bytes32 node = keccak256(abi.encodePacked(baseNode, bytes32(tokenId)));
        if (registrar.ownerOf(tokenId) == address(this) && ens.owner(node) == address(this)) {
            data[uint256(node)].expiry = uint64(expires) + GRACE_PERIOD;
        }
    }

    // ---- any other name: wrap an existing registry record, or create wrapped subnames ----

    /// Wraps a name (not a 2LD of the base node) whose registry record the caller controls. `name` is DNS wire format.
    function wrap(bytes calldata name, address wrappedOwner, address resolver) external {
        (bytes32 labelhash, uint256 offset) = _readLabel(name, 0);
        bytes32 parentNode = _namehash(name, offset);
        require(parentNode != baseNode, "use wrapETH2LD");
        bytes32 node = keccak256(abi.encodePacked(parentNode, labelhash));
        address owner = ens.owner(node);
        require(owner == msg.sender || ens.isApprovedForAll(owner, msg.sender), "not the owner");
        ens.setOwner(node, address(this));
        if (resolver != address(0)) ens.setResolver(node, resolver);
        names[node] = name;
        _mint(node, wrappedOwner, 0, 0, name);
    }

    /// Returns an unwrapped subname's registry record to `controller`; the parent's owner or the name's owner may do it.
    function unwrap(bytes32 parentNode, bytes32 labelhash, address controller) external {
        require(parentNode != baseNode, "use unwrapETH2LD");
        _unwrap(keccak256(abi.encodePacked(parentNode, labelhash)), controller);
    }

    function setSubnodeOwner(bytes32 parentNode, string calldata label, address owner, uint32 fuses, uint64 expiry)
        external
        returns (bytes32 node)
    {
        uint64 cappedExpiry;
        (node, cappedExpiry) = _checkSubnode(parentNode, label, owner, expiry);
        // Registry first, then the token: an indexer sees NewOwner before NameWrapped, as on mainnet.
        ens.setSubnodeOwner(parentNode, keccak256(bytes(label)), address(this));
        _mintSubnode(parentNode, node, label, owner, fuses, cappedExpiry);
    }

    function setSubnodeRecord(
        bytes32 parentNode,
        string calldata label,
        address owner,
        address resolver,
        uint64 ttl,
        uint32 fuses,
        uint64 expiry
    ) external returns (bytes32 node) {
        uint64 cappedExpiry;
        (node, cappedExpiry) = _checkSubnode(parentNode, label, owner, expiry);
        ens.setSubnodeRecord(parentNode, keccak256(bytes(label)), address(this), resolver, ttl);
        _mintSubnode(parentNode, node, label, owner, fuses, cappedExpiry);
    }

    // ---- fuses and expiry ----

    /// The owner burns fuses on its own name (fuses only ever accumulate).
    function setFuses(bytes32 node, uint16 ownerControlledFuses) external returns (uint32) {
        Data storage d = data[uint256(node)];
        require(_isOwnerOrApproved(d.owner, msg.sender), "not the owner");
        d.fuses |= uint32(ownerControlledFuses);
        emit FusesSet(node, d.fuses);
        return d.fuses;
    }

    /// The parent's owner burns fuses on (and may extend) a child.
    function setChildFuses(bytes32 parentNode, bytes32 labelhash, uint32 fuses, uint64 expiry) external {
        require(_isOwnerOrApproved(data[uint256(parentNode)].owner, msg.sender), "not the parent owner");
        bytes32 node = keccak256(abi.encodePacked(parentNode, labelhash));
        Data storage d = data[uint256(node)];
        require(d.owner != address(0), "not wrapped");
        uint64 oldExpiry = d.expiry;
        uint64 parentExpiry = data[uint256(parentNode)].expiry;
        if (expiry > parentExpiry) expiry = parentExpiry;
        d.fuses |= fuses;
        emit FusesSet(node, d.fuses);
        if (expiry > oldExpiry) {
            d.expiry = expiry;
            emit ExpiryExtended(node, expiry);
        }
    }

    /// The parent's owner (or the owner, where the parent allowed it) extends a child's expiry, capped at the parent's.
    function extendExpiry(bytes32 parentNode, bytes32 labelhash, uint64 expiry) external returns (uint64) {
        bytes32 node = keccak256(abi.encodePacked(parentNode, labelhash));
        Data storage d = data[uint256(node)];
        require(
            _isOwnerOrApproved(data[uint256(parentNode)].owner, msg.sender) || _isOwnerOrApproved(d.owner, msg.sender),
            "not authorised"
        );
        uint64 parentExpiry = data[uint256(parentNode)].expiry;
        if (expiry > parentExpiry) expiry = parentExpiry;
        if (expiry > d.expiry) {
            d.expiry = expiry;
            emit ExpiryExtended(node, expiry);
        }
        return d.expiry;
    }

    // ---- records of wrapped names (the wrapper owns them in the registry) ----

    function setResolver(bytes32 node, address resolver) external {
        require(_isOwnerOrApproved(data[uint256(node)].owner, msg.sender), "not the owner");
        ens.setResolver(node, resolver);
    }

    function setTTL(bytes32 node, uint64 ttl) external {
        require(_isOwnerOrApproved(data[uint256(node)].owner, msg.sender), "not the owner");
        ens.setTTL(node, ttl);
    }

    // ---- ERC-1155 ----

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes calldata extra) external {
        require(_isOwnerOrApproved(from, msg.sender), "not approved");
        _move(from, to, id, amount);
        emit TransferSingle(msg.sender, from, to, id, amount);
        if (to.code.length > 0) {
            require(
                IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, amount, extra) == IERC1155Receiver.onERC1155Received.selector,
                "rejected"
            );
        }
    }

    function safeBatchTransferFrom(address from, address to, uint256[] calldata ids, uint256[] calldata amounts, bytes calldata extra)
        external
    {
        require(ids.length == amounts.length, "length mismatch");
        require(_isOwnerOrApproved(from, msg.sender), "not approved");
        for (uint256 i = 0; i < ids.length; i++) _move(from, to, ids[i], amounts[i]);
        emit TransferBatch(msg.sender, from, to, ids, amounts);
        if (to.code.length > 0) {
            require(
                IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, amounts, extra)
                    == IERC1155Receiver.onERC1155BatchReceived.selector,
                "rejected"
            );
        }
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26; // ERC-165, ERC-1155
    }

    // ---- internals ----

    function _wrapETH2LD(string calldata label, bytes32 labelhash, address owner, uint32 fuses, uint64 expiry, address resolver) private {
        bytes32 node = keccak256(abi.encodePacked(baseNode, labelhash));
        bytes memory name = abi.encodePacked(uint8(bytes(label).length), label, names[baseNode]);
        names[node] = name;
        _mint(node, owner, fuses | PARENT_CANNOT_CONTROL | IS_DOT_ETH, expiry, name);
        // After NameWrapped, as on mainnet: the wrapper already holds the registry record.
        if (resolver != address(0)) ens.setResolver(node, resolver);
    }

    function _checkSubnode(bytes32 parentNode, string calldata label, address owner, uint64 expiry)
        private
        view
        returns (bytes32 node, uint64 cappedExpiry)
    {
        Data memory parent = data[uint256(parentNode)];
        require(_isOwnerOrApproved(parent.owner, msg.sender), "not the parent owner");
        require(owner != address(0), "owner is zero");
        node = keccak256(abi.encodePacked(parentNode, keccak256(bytes(label))));
        require(data[uint256(node)].owner == address(0), "already wrapped");
        // A child never outlives its parent.
        cappedExpiry = expiry > parent.expiry ? parent.expiry : expiry;
    }

    function _mintSubnode(bytes32 parentNode, bytes32 node, string calldata label, address owner, uint32 fuses, uint64 expiry) private {
        bytes memory name = abi.encodePacked(uint8(bytes(label).length), label, names[parentNode]);
        names[node] = name;
        _mint(node, owner, fuses, expiry, name);
    }

    function _mint(bytes32 node, address owner, uint32 fuses, uint64 expiry, bytes memory name) private {
        require(owner != address(0) && owner != address(this), "bad owner");
        data[uint256(node)] = Data(owner, fuses, expiry);
        emit TransferSingle(msg.sender, address(0), owner, uint256(node), 1);
        emit NameWrapped(node, name, owner, fuses, expiry);
    }

    function _unwrap(bytes32 node, address controller) private {
        Data memory d = data[uint256(node)];
        require(_isOwnerOrApproved(d.owner, msg.sender), "not the owner");
        require(d.fuses & CANNOT_UNWRAP == 0, "CANNOT_UNWRAP burned");
        require(controller != address(0) && controller != address(this), "bad controller");
        delete data[uint256(node)];
        emit TransferSingle(msg.sender, d.owner, address(0), uint256(node), 1);
        ens.setOwner(node, controller);
        emit NameUnwrapped(node, controller);
    }

    function _move(address from, address to, uint256 id, uint256 amount) private {
        Data storage d = data[id];
        require(amount == 1 && d.owner == from, "not the token owner");
        require(to != address(0), "transfer to zero");
        require(d.fuses & CANNOT_TRANSFER == 0, "CANNOT_TRANSFER burned");
        d.owner = to;
    }

    function _isOwnerOrApproved(address owner, address sender) private view returns (bool) {
        return owner != address(0) && (owner == sender || isApprovedForAll[owner][sender]);
    }

    function _readLabel(bytes calldata name, uint256 offset) private pure returns (bytes32 labelhash, uint256 next) {
        uint256 len = uint8(name[offset]);
        labelhash = keccak256(name[offset + 1:offset + 1 + len]);
        next = offset + 1 + len;
    }

    function _namehash(bytes calldata name, uint256 offset) private pure returns (bytes32) {
        uint256 len = uint8(name[offset]);
        if (len == 0) return bytes32(0);
        (bytes32 labelhash, uint256 next) = _readLabel(name, offset);
        return keccak256(abi.encodePacked(_namehash(name, next), labelhash));
    }
}
