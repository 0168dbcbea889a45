// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IBaseRegistrar, IENS} from "./Interfaces.sol";
import {DevnetPriceOracle} from "./DevnetPriceOracle.sol";
import {ControllerBase} from "./ControllerBase.sol";

/// The 2025 .eth controller: registers unwrapped names and carries a `bytes32 referrer` in its events (a referrer
/// address sits in the low 20 bytes; anything in the high 12 bytes makes it undecodable).
contract UnwrappedEthRegistrarController is ControllerBase {
    event NameRegistered(
        string label, bytes32 indexed labelhash, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires, bytes32 referrer
    );
    event NameRenewed(string label, bytes32 indexed labelhash, uint256 cost, uint256 expires, bytes32 referrer);

    constructor(IBaseRegistrar _base, IENS _ens, bytes32 _baseNode, DevnetPriceOracle _prices, uint256 _minAge, uint256 _maxAge)
        ControllerBase(_base, _ens, _baseNode, _prices, _minAge, _maxAge)
    {}

    function makeCommitment(string calldata label, address owner_, uint256 duration, bytes32 secret, address resolver, bytes32 referrer)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encode(keccak256(bytes(label)), owner_, duration, secret, resolver, referrer));
    }

    function register(string calldata label, address owner_, uint256 duration, bytes32 secret, address resolver, bytes32 referrer)
        external
        payable
    {
        (uint256 baseCost, uint256 premium) = _consume(makeCommitment(label, owner_, duration, secret, resolver, referrer), label, duration);
        bytes32 labelhash = keccak256(bytes(label));
        uint256 tokenId = uint256(labelhash);
        uint256 expires;
        if (resolver == address(0)) {
            expires = base.register(tokenId, owner_, duration);
        } else {
            // Hold the name for a moment to point it at the resolver, then hand registry record and token to the owner.
            expires = base.register(tokenId, address(this), duration);
            ens.setRecord(keccak256(abi.encodePacked(baseNode, labelhash)), owner_, resolver, 0);
            base.transferFrom(address(this), owner_, tokenId);
        }
        emit NameRegistered(label, labelhash, owner_, baseCost, premium, expires, referrer);
    }

    function renew(string calldata label, uint256 duration, bytes32 referrer) external payable {
        bytes32 labelhash = keccak256(bytes(label));
        (uint256 baseCost,) = rentPrice(label, duration);
        _charge(baseCost);
        uint256 expires = base.renew(uint256(labelhash), duration);
        emit NameRenewed(label, labelhash, baseCost, expires, referrer);
    }
}
